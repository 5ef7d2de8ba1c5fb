// AnswerBox front end: a one-line text box whose every change, and Enter, reaches Python as a
// message of its own, in the order typed. (ipywidgets' Text sends its changes as saved changes,
// which ipywidgets holds back while one is unanswered, and Enter straight away: so "9", ⌫, "8",
// Enter typed before Python had answered was judged as 9.)

function render({ model, el }) {
  const label = document.createElement("label");
  label.className = "kt-answer";
  const text = document.createElement("span");
  text.className = "kt-answer-label";
  const input = document.createElement("input");
  input.type = "text";
  input.className = "kt-answer-input";
  input.autocomplete = "off";
  label.append(text, input);
  el.appendChild(label);

  function draw() {
    text.textContent = model.get("description");
    text.hidden = !model.get("description");
    input.placeholder = model.get("placeholder");
    input.disabled = model.get("disabled");
    if (input.value !== model.get("value")) input.value = model.get("value");  // Python cleared or set it
  }

  function onInput() {
    model.set("value", input.value);  // the page's copy; Python does not send it back
    model.send({ value: input.value });
  }

  function onKey(event) {
    if (event.key === "Enter") {
      event.preventDefault();
      model.send({ value: input.value, submit: true });  // the box as it stands, and Enter, in one
    }
  }

  input.addEventListener("input", onInput);
  input.addEventListener("keydown", onKey);
  model.on("change", draw);
  draw();
  return () => {
    model.off("change", draw);
    input.removeEventListener("input", onInput);
    input.removeEventListener("keydown", onKey);
  };
}

export default { render };
