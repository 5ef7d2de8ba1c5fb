// CardRowWidget front end: places the SVG cards rendered in Python (trait
// `svgs`) and turns clicks and Enter/Space into changes of `selected`.
// Elements are patched in place, so keyboard focus survives a redraw.

function patch(node, markup) {
  const tpl = document.createElement("template");
  tpl.innerHTML = markup.trim();
  const fresh = tpl.content.firstElementChild;
  if (!node || node.tagName !== fresh.tagName) return fresh;
  for (const a of [...node.attributes]) {
    if (!fresh.hasAttribute(a.name)) node.removeAttribute(a.name);
  }
  for (const a of [...fresh.attributes]) {
    if (node.getAttribute(a.name) !== a.value) node.setAttribute(a.name, a.value);
  }
  node.replaceChildren(...fresh.childNodes);
  return node;
}

function render({ model, el }) {
  const root = document.createElement("div");
  const label = document.createElement("div");
  label.className = "kt-label";
  const row = document.createElement("div");
  row.className = "kt-row";
  row.setAttribute("role", "group");
  const empty = document.createElement("div");
  empty.className = "kt-empty";
  root.append(label, row);
  el.appendChild(root);

  let nodes = [];
  let drawn = [];

  function draw() {
    const kind = model.get("kind");
    const selectable = model.get("selectable");
    root.className = `kt-cards kt-${kind}` + (selectable ? " kt-selectable" : "");
    const text = model.get("label");
    label.textContent = text;
    label.hidden = !text;
    const svgs = model.get("svgs") || [];
    row.setAttribute("aria-label", model.get("row_label"));  // in the page's language, from Python
    while (nodes.length > svgs.length) {
      nodes.pop().remove();
      drawn.pop();
    }
    svgs.forEach((markup, i) => {
      if (drawn[i] === markup) return;
      const node = patch(nodes[i], markup);
      if (node !== nodes[i]) {
        if (nodes[i]) nodes[i].replaceWith(node);
        else row.insertBefore(node, empty.parentNode === row ? empty : null);
        nodes[i] = node;
      }
      drawn[i] = markup;
    });
    if (svgs.length === 0) {
      empty.textContent = model.get("empty_text");
      empty.style.width = `${model.get("width")}px`;
      empty.style.height = `${Math.round(model.get("width") * 1.4)}px`;
      row.appendChild(empty);
    } else if (empty.parentNode === row) {
      empty.remove();
    }
  }

  function toggle(i) {
    if (!model.get("selectable")) return;
    const n = (model.get("cards") || []).length;
    if (!(i >= 0 && i < n)) return;
    let sel = [...(model.get("selected") || [])];
    if (sel.includes(i)) sel = sel.filter((j) => j !== i);
    else if (model.get("multiple")) sel = [...sel, i].sort((a, b) => a - b);
    else sel = [i];
    // answer at once; Python redraws the cards a moment later
    nodes.forEach((node, j) => {
      const on = sel.includes(j);
      node.classList.toggle("kt-selected", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
    });
    model.set("selected", sel);
    model.save_changes();
  }

  function cardOf(event) {
    const card = event.target.closest(".kt-card");
    return card && row.contains(card) ? card : null;
  }

  function onClick(event) {
    const card = cardOf(event);
    if (card) toggle(Number(card.dataset.index));
  }

  function onKey(event) {
    const card = cardOf(event);
    if (!card) return;
    const i = Number(card.dataset.index);
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      toggle(i);
    } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      const next = nodes[i + (event.key === "ArrowRight" ? 1 : -1)];
      if (next && model.get("selectable")) {
        event.preventDefault();
        next.focus();
      }
    }
  }

  row.addEventListener("click", onClick);
  row.addEventListener("keydown", onKey);
  model.on("change", draw);
  draw();
  return () => {
    model.off("change", draw);
    row.removeEventListener("click", onClick);
    row.removeEventListener("keydown", onKey);
  };
}

export default { render };
