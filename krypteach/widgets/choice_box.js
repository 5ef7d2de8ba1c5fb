// ChoiceBox front end: radio buttons (one choice of a few) whose every choice reaches Python as a
// message of its own, in the order made (answer_box.js says why ipywidgets' own do not). Native
// radio inputs in labels: the keyboard (arrows, Tab) and screen readers work as for any radio group.

let made = 0;

function render({ model, el }) {
  const group = document.createElement("div");
  group.className = "kt-choice-group";
  el.appendChild(group);
  const name = `kt-choice-${++made}-${Math.random().toString(36).slice(2, 8)}`;
  let inputs = [];
  let drawnOptions = null;

  function draw() {
    const options = model.get("options") || [];
    const key = JSON.stringify(options);
    if (key !== drawnOptions) {
      group.replaceChildren();
      inputs = options.map((text, i) => {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "radio";
        input.name = name;
        input.value = String(i);
        const span = document.createElement("span");
        span.textContent = text;
        label.append(input, span);
        group.appendChild(label);
        return input;
      });
      drawnOptions = key;
    }
    const index = model.get("index");
    inputs.forEach((input, i) => {
      input.checked = index === i;
      input.disabled = model.get("disabled");
    });
  }

  function onChange(event) {
    const i = inputs.indexOf(event.target);
    if (i < 0 || !event.target.checked) return;
    model.set("index", i);  // the page's copy; Python does not send it back
    model.send({ index: i });
  }

  group.addEventListener("change", onChange);
  model.on("change", draw);
  draw();
  return () => {
    model.off("change", draw);
    group.removeEventListener("change", onChange);
  };
}

export default { render };
