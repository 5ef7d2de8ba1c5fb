"""The teacher's board on a learner's page, at the widget level (issue 24): the panel draws the
server's view, sends the learner's choice once, shows a refusal in its sentence, the answer once
shown, and hides when the teacher takes the position off."""

from __future__ import annotations

from typing import Any

from krypteach.classroom.live import LiveError
from krypteach.widgets.board_widget import BoardPanel

SEVEN, TWO = "7H:2D+5C", "2S:2D"


def _view(version: int = 1, qid: int = 1, mine: str | None = None, reveal: dict | None = None) -> dict[str, Any]:
    return {"version": version, "question": {
        "id": qid, "prompt": "Your hand and the table are shown. Which move do you play?", "hand": ["7H", "2S"],
        "table": ["5C", "2D", "KS"], "next_hand": [], "kladda": [], "played": False, "mine": mine, "reveal": reveal,
        "choices": [{"key": SEVEN, "words": "7♥ takes 2♦+5♣"}, {"key": TWO, "words": "2♠ takes 2♦"}]}}


class FakeLink:
    token = "t"

    def __init__(self, refuse: str | None = None) -> None:
        self.sent: list[dict] = []
        self.refuse = refuse

    def post(self, path: str, data: dict) -> dict:
        assert path == "board/answer"
        self.sent.append(data)
        if self.refuse:
            raise LiveError(self.refuse, 409)
        return _view(mine=data["answer"])


def test_the_panel_draws_the_position_sends_one_choice_and_shows_the_answer_when_the_teacher_does():
    link = FakeLink()
    panel = BoardPanel(link=link)
    assert panel.layout.display == "none"
    panel.show(_view())
    assert panel.layout.display == "" and panel.version == 1
    assert 'data-card="7H"' in panel.position.value and 'data-card="KS"' in panel.position.value
    assert [b.description for b in panel.choices.children] == ["7♥ takes 2♦+5♣", "2♠ takes 2♦"]
    panel.choices.children[1].click()
    assert link.sent == [{"question": 1, "answer": TWO, "lang": "en"}]
    assert all(b.disabled for b in panel.choices.children)
    assert [b.button_style for b in panel.choices.children] == ["", "info"]
    assert "Your answer: 2♠ takes 2♦." in panel.feedback.value
    panel.choices.children[0].click()  # spent: nothing more is sent
    panel.choose(SEVEN)
    assert len(link.sent) == 1

    reveal = {"answer": "7♥ takes 2♦+5♣", "explanation": "7♥ takes 2♦+5♣. You take no points.", "right": [SEVEN],
              "yours": False}
    panel.show(_view(version=2, mine=TWO, reveal=reveal))
    said = panel.feedback.value
    assert "The answer: 7♥ takes 2♦+5♣." in said and "Your answer 2♠ takes 2♦ is not the best here." in said
    assert "You take no points." in said and "kt-error" in said
    nxt = _view(version=3, qid=2)  # the next position: drawn anew, nothing answered
    nxt["question"].update(hand=["3D", "KS"], choices=[{"key": "3D", "words": "3♦"}, {"key": "KS", "words": "K♠"}])
    panel.show(nxt)
    assert 'data-card="3D"' in panel.position.value and 'data-card="7H"' not in panel.position.value
    assert [b.description for b in panel.choices.children] == ["3♦", "K♠"]
    assert panel.mine is None and not any(b.disabled for b in panel.choices.children)
    assert panel.feedback.value == ""
    panel.show({"version": 4, "question": None})  # taken off the board
    assert panel.layout.display == "none" and panel.version == 4


def test_a_refused_answer_shows_its_sentence_and_a_page_that_did_not_answer_is_told_so():
    link = FakeLink(refuse="the answer is shown already: wait for your teacher's next position")
    panel = BoardPanel(link=link)
    panel.show(_view())
    panel.choose(SEVEN)
    assert "the answer is shown already: wait for your teacher's next position" in panel.feedback.value
    assert panel.mine is None
    panel.show(_view(version=2, reveal={"answer": "7♥ takes 2♦+5♣", "explanation": "", "right": [SEVEN],
                                        "yours": None}))
    assert "You did not answer this position." in panel.feedback.value
    assert all(b.disabled for b in panel.choices.children)
