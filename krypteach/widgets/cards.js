// CardRowWidget front end: places the SVG cards rendered in Python (trait
// `svgs`) and turns clicks and Enter/Space into changes of `selected`, each sent to Python
// as a message in the order of the clicks (toggle says why).
// Elements are patched in place, so keyboard focus survives a redraw.
// A row is one stop for Tab (a "roving tabindex", as WAI-ARIA's toolbar pattern has it):
// Tab reaches the row's last focused (or first selected) card, the arrow keys, Home and End
// move within the row, so a move is Tab, arrows and Space, not a Tab for every card.

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
  let current = -1;  // the card that holds the row's tab stop

  function rove() {
    if (!model.get("selectable")) {
      nodes.forEach((node) => node.removeAttribute("tabindex"));
      return;
    }
    if (!(current >= 0 && current < nodes.length)) {
      const sel = model.get("selected") || [];
      current = sel.length ? sel[0] : 0;
    }
    nodes.forEach((node, j) => node.setAttribute("tabindex", j === current ? "0" : "-1"));
  }

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
    rove();
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
    // The choice goes to Python as a message of its own, not as a saved change: ipywidgets holds
    // a saved change back while an earlier one is unanswered, so a Check or Play pressed at once
    // (a button's click is sent straight away) would reach Python first and be judged on the
    // cards chosen before. The page's own copy is set here; Python does not send it back.
    model.set("selected", sel);
    model.send({ selected: sel });
  }

  function cardOf(event) {
    const card = event.target.closest(".kt-card");
    return card && row.contains(card) ? card : null;
  }

  function onClick(event) {
    const card = cardOf(event);
    if (card) toggle(Number(card.dataset.index));
  }

  const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

  function onKey(event) {
    const card = cardOf(event);
    if (!card) return;
    const i = Number(card.dataset.index);
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      toggle(i);
      return;
    }
    let j = null;
    if (event.key in STEPS) j = i + STEPS[event.key];
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = nodes.length - 1;
    if (j !== null && nodes[j] && model.get("selectable")) {
      event.preventDefault();
      current = j;
      rove();
      nodes[j].focus();
    }
  }

  function onFocus(event) {
    const card = cardOf(event);
    if (card && model.get("selectable")) {
      current = Number(card.dataset.index);
      rove();
    }
  }

  row.addEventListener("click", onClick);
  row.addEventListener("keydown", onKey);
  row.addEventListener("focusin", onFocus);
  model.on("change", draw);
  draw();
  return () => {
    model.off("change", draw);
    row.removeEventListener("click", onClick);
    row.removeEventListener("keydown", onKey);
    row.removeEventListener("focusin", onFocus);
  };
}

export default { render };
