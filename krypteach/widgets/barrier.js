// Barrier front end: nothing to see. Python asks {"ping": n} when a button is pressed; the page
// answers {"pong": n}. The page sends each ipywidgets control's held-back change as soon as Python
// has answered the one before, and Python's answers reach the page in order: so the pong reaches
// Python after every change the learner made before pressing the button (inputs.py, Barrier).

function render({ model, el }) {
  el.hidden = true;
  const answer = (msg) => {
    if (msg && Number.isInteger(msg.ping)) { model.send({ pong: msg.ping }); }
  };
  model.on("msg:custom", answer);
  model.send({ view: "shown" });
  return () => {
    model.off("msg:custom", answer);
    try { model.send({ view: "gone" }); } catch (err) { /* the page is closing: nothing waits */ }
  };
}

export default { render };
