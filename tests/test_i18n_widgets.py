"""Issue 11: the widgets in Swedish and English: labels and buttons, feedback, hints, the learner's bar.

A widget's words are chosen when it is made and when it answers, in the page's language
(a Swedish page says "Rätta", "Visa svaret", "Rätt." …); the English words are as before."""

from __future__ import annotations

import pytest

from krypteach import Giv
from krypteach.classroom.session import ENV_KEY, Session
from krypteach.i18n import use_language
from krypteach.i18n.catalogs import check as check_catalogs
from krypteach.widgets import (
    CardRowWidget,
    CountPointsExercise,
    DukningExercise,
    FindTraffarExercise,
    LearnerBar,
    PuzzleTrainer,
    ReplayViewer,
    RulesPicker,
    SelfCheck,
    TakeAllExercise,
    TvangstabbeExercise,
)
from krypteach.widgets.guard import allowed_upload

QUIZ = [{"text": "How many cards?", "options": ["52", "104"], "answer": "104", "explanation": "Two decks."}]


def test_the_widgets_catalogs_are_complete():
    assert check_catalogs(["widgets"]) == []


def test_an_exercise_says_its_words_in_swedish_and_in_english():
    with use_language("sv"):
        ex = TakeAllExercise(card="4H", table="9S 2C 5D")
        assert [b.description for b in ex.buttons] == ["Rätta", "Krypa", "Ny ställning", "Visa svaret"]
        assert "Ta in allt du måste" in ex.title_html.value and "måste det ta in" in ex.instruction_html.value
        assert ex.table_row.label == "Bordet" and ex.card_row.label == "Ditt kort (spelas)"
        assert ex.progress.value == "Klara: 0 · Försök: 0"
        ex.check()
        assert ex.message == "Välj korten på bordet som din 4♥ tar, eller tryck på Krypa om den inte tar något."
        ex.creep()
        assert ex.message.startswith("Rätt. ")
    # the class keeps its English source: the next (English) page gets English words
    assert TakeAllExercise.title == "Take all you must (ta in allt)"
    ex = TakeAllExercise(card="4H", table="9S 2C 5D")
    assert [b.description for b in ex.buttons] == ["Check", "Creep (krypa)", "New position", "Show answer"]
    assert ex.table_row.label == "Table (bordet)"
    ex.creep()
    assert ex.message == "Right. 4♥ has no träff, so it creeps (kryper): it is laid on the table."


def test_take_all_lists_the_other_right_captures_in_swedish():
    with use_language("sv"):
        ex = TakeAllExercise(card="9H", table="2C 7D 7S 8H")  # 2♣ with 7♦ or with 7♠
        ex.table_row.select(["2C", "7D"])
        ex.check()
        assert "Det finns 2 sätt att ta allt du kan, och alla är rätt. Det andra:" in ex.message
        assert "9♥ tar " in ex.message


def test_count_points_nudges_and_breaks_down_in_swedish():
    with use_language("sv"):
        ex = CountPointsExercise(pile="10D 2S AS AH 7S 7H", marks=1)
        assert "Spelaren har också 1 tabbe." in ex.extras_html.value
        assert ex.points.description == "Poäng:" and ex.points.placeholder == "t.ex. 7"
        ex.check()
        assert ex.message == "Skriv poängen först: ett heltal, till exempel 7 eller −3."
        ex.points.value = "3"
        ex.check()
        assert ex.message.startswith("3 är för lågt. Räkna igen: vilka av korten ger poäng")
        assert "Sedan tabbarna och dukningarna" in ex.message
        ex.points.value = "−20"
        ex.check()
        assert ex.message.startswith("−20 är för lågt. De här korten ger poäng – lägg ihop dem")
        assert "det andra kortet ger 0" in ex.message
        ex.points.value = "14"
        ex.check()
        assert ex.message.startswith("Rätt: 9 kortpoäng + 1 × +5 för tabbar = 14.")
    ex = CountPointsExercise(pile="10D 2S AS AH 7S 7H", marks=1)
    ex.points.value = "14"
    ex.check()
    assert ex.message.startswith("Right: 9 card points + 1 × +5 for tabbe marks = 14.")


def test_find_traffar_counts_and_explains_in_swedish():
    with use_language("sv"):
        ex = FindTraffarExercise(card="9H", table="9S 2C 5D 7D 4S")
        assert "Hittat 0 av 3 träffar" in ex.found_html.value
        ex.table_row.select(["2C", "7D"])
        ex.check()
        assert ex.message.splitlines() == ["2♣+7♦: 2 + 7 = 9, värdet på din 9♥. Det är en träff.",
                                           "Hittat 1 av 3: 2 kvar att hitta."]
        ex.table_row.select(["2C", "5D"])
        ex.check()
        assert ex.message.startswith("2♣+5♦ blir 2 + 5 = 7, inte 9 (för lite)")
        ex.show_answer()
        assert ex.message.startswith("Din 9♥ har 3 träffar här:")


def test_tvangstabbe_in_swedish():
    with use_language("sv"):
        ex = TvangstabbeExercise(hand="4C 5S 6H", table="9S 2C")
        assert ex.none_button.description == "Ingen tabbe går"
        ex.no_tabbe()
        assert ex.message.startswith("Rätt: inget kort på handen kan ta hela bordet")
        ex = TvangstabbeExercise(hand="4C 10S 6H", table="AH 7C 3D 9S")
        ex.show_answer()
        assert ex.message.startswith("Tvångstabbe (tabbe på tio): du måste spela din 10♠ och ta hela bordet.")


def test_dukning_in_swedish():
    with use_language("sv"):
        ex = DukningExercise(seed=4)
        assert [b.description for b in ex.answer_buttons][-1] == "Ingen"
        assert "spelare; spelet går åt vänster" in ex.steps_html.value
        assert "Vem får dukningen?" in ex.question_html.value
        ex.answer(ex.tabbe_turn.dukning)
        assert ex.message.startswith("Rätt. ") and "precis före tabben" in ex.message


def test_a_card_row_is_named_in_the_pages_language():
    with use_language("sv"):
        row = CardRowWidget(cards=["9S", "2C"], kind="table")
        empty = CardRowWidget(kind="pile", label="Högen")
        assert row.row_label == "bordet: 2 kort" and empty.empty_text == "tomt" and empty.row_label == "Högen: 0 kort"
    row = CardRowWidget(cards=["9S"], kind="table", label="Table (bordet)")
    assert row.row_label == "Table (bordet): 1 card" and row.empty_text == "empty"
    row.cards = ["9S", "2C"]
    assert row.row_label == "Table (bordet): 2 cards"


def test_the_puzzle_trainer_in_swedish():
    with use_language("sv"):
        t = PuzzleTrainer(kind="which-card", seed=1)
        assert [t.check_button.description, t.hint_button.description, t.answer_button.description,
                t.next_button.description] == ["Rätta", "Ledtråd", "Visa svaret", "Nästa problem"]
        assert "Vilket kort måste du spela?" in t.title_html.value and "nivå" in t.title_html.value
        assert t.progress.value.startswith("Lösta: 0 av ")
        t.check()
        assert t.message == "Välj först ett kort på handen och tryck sedan på Rätta."
        t.hint()
        assert t.message.startswith("Ledtråd: ”Tabbe på ")
        t.show_answer()
        assert t.message.startswith("Svar: ")
    t = PuzzleTrainer(kind="which-card", seed=1)
    assert t.hint_button.description == "Hint" and "Which card must you play?" in t.title_html.value


def test_the_self_check_in_swedish():
    with use_language("sv"):
        sc = SelfCheck(QUIZ)
        assert "Kolla dig själv" in sc.children[0].value and sc.check_button.description == "Rätta"
        assert "1 fråga." in sc.score_html.value
        sc.check()
        assert sc.message == "1. Välj ett svar först."
        sc.answer(1, "52")
        sc.check()
        assert sc.message == "1. Inte riktigt: det är inte 52. Tänk efter och välj ett annat svar: du har ett försök till."
        wide = SelfCheck([{**QUIZ[0], "options": ["52", "104", "108"]}])
        wide.answer(1, "52")
        wide.check()
        wide.answer(1, "108")
        wide.check()  # the second wrong answer shows the answer
        assert wide.message == "1. Inte riktigt: svaret är 104. Two decks."
        assert "Resultat: 0 av 1. Läs förklaringarna" in sc.score_html.value
    sc = SelfCheck(QUIZ)
    sc.answer(1, "104")
    sc.check()
    assert sc.message == "1. Right. Two decks." and "Score: 1 of 1 — all right. Well done!" in sc.score_html.value


def test_the_replay_in_swedish():
    g = Giv(seed=5)
    g.play_out(lambda g: g.legal_moves()[-1])
    with use_language("sv"):
        viewer = ReplayViewer(g)
        assert viewer.forward_button.description == "Framåt" and viewer.slider.description == "Drag"
        assert viewer.counter.value == f"<b>Drag 0 av {viewer.steps}</b>"
        assert "Utdelningen: " in viewer.move_text.value and "<th>Kortpoäng</th>" in viewer.scores.value
        assert viewer.message.startswith("Given: 2 spelare, ") and "Tryck på Framåt" in viewer.message
        viewer.forward()
        assert "Drag 1: " in viewer.move_text.value
        assert not viewer.open_file(b"not json")
        assert viewer.message.startswith("filen: rad 1: ")
        assert not viewer.open_file(b"\n")
        assert viewer.message == "filen: filen är tom: en givfil har en giv per rad (JSON Lines)"
    viewer = ReplayViewer(g)
    assert viewer.counter.value == f"<b>Move 0 of {viewer.steps}</b>"
    assert viewer.message.startswith("The giv: 2 players, ") and "<th>Card points</th>" in viewer.scores.value


def test_the_rules_picker_in_swedish():
    with use_language("sv"):
        p = RulesPicker()
        assert p.controls["players"].description == "Spelare" and p.preset.description == "Variant"
        assert ("Ta allt du kan (maximal)", "maximal") in p.controls["capture"].options
        p.controls["players"].value = 4
        assert ("Par", "pairs") in p.controls["teams"].options
        p.controls["hand_size"].value = 26
        assert "De här reglerna fungerar inte: " in p.error_html.value
        assert "De senaste reglerna som fungerar gäller" in p.summary.value
    p = RulesPicker()
    assert p.controls["players"].description == "Players (spelare)"
    p.controls["players"].value = 4
    assert ("Pairs (par)", "pairs") in p.controls["teams"].options


def test_a_refused_upload_says_why_in_swedish():
    import ipywidgets as widgets
    with use_language("sv"):
        why = allowed_upload(widgets.Text(), {"state": {"value": "x"}, "buffer_paths": [["value"]]}, [b"abc"])
        assert why == "bara en filuppladdning får skicka binära data"


@pytest.fixture
def static_site(monkeypatch):
    monkeypatch.setenv("KRYPTEACH_SITE", "1")
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)


def _signed_in_bar(nickname: str) -> tuple[LearnerBar, Session]:
    session = Session()
    bar = LearnerBar(session=session)
    bar.send = lambda content, buffers=None: None
    items = [session.declare("take-all-exercise", "exercise") for _ in range(5)]
    page = "/site/voila/render/03_take_all.html"
    bar._handle_custom_msg({"hello": 1, "token": "", "page": page}, [])
    assert "kt-nick-form" in bar.html
    bar._handle_custom_msg({"nickname": nickname, "page": page}, [])
    for item in items[:2]:
        session.record(item, "exercise", correct=True)
    return bar, session


def test_the_learner_bar_speaks_the_pages_language(static_site):
    with use_language("sv"):
        bar = LearnerBar(session=Session())
        bar._handle_custom_msg({"hello": 1, "token": "", "page": "/site/voila/render/03_take_all.html"}, [])
        assert "Skriv ett smeknamn så sparas dina framsteg i den här webbläsaren:" in bar.html
        assert ">Spara</button>" in bar.html and "(save)" not in bar.html
        bar, _session = _signed_in_bar("Ann")
        assert bar.html.startswith("<b>Ann</b> · 2 av 5 uppgifter och frågor klara i den här lektionen")
        assert "of 5 solved" not in bar.html and "Ladda ner dina framsteg" in bar.html
    bar, _session = _signed_in_bar("Bo")
    assert bar.html.startswith("<b>Bo</b> · 2 of 5 exercises and questions solved in this lesson")
    assert "klara" not in bar.html and "Download your progress, for your teacher" in bar.html


def test_the_learner_bar_offers_to_sign_in_in_the_pages_language(monkeypatch):
    monkeypatch.setenv(ENV_KEY, "ab" * 32)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    with use_language("sv"):
        bar = LearnerBar(session=Session())
        bar._handle_custom_msg({"hello": 1, "token": "", "page": "/voila/render/03_take_all.ipynb"}, [])
        assert bar.html.startswith("Dina framsteg sparas inte ännu. <a href='/krypteach/join?next=")
        assert "Logga in med ett smeknamn</a>" in bar.html
    bar = LearnerBar(session=Session())
    bar._handle_custom_msg({"hello": 1, "token": "", "page": "/voila/render/03_take_all.ipynb"}, [])
    assert bar.html.startswith("Your progress is not kept yet. <a href=")


def test_tvangstabbe_names_one_other_card_or_several_in_both_languages():
    """Issue 19: "Din {cards} kunde också" was said of several cards too; now "Dina 10♣ och 10♥"."""
    table = "AH 7C 3D 9S"
    said = {}
    for lang in ("sv", "en"):
        with use_language(lang):
            for hand in ("10C 10S 4C", "10C 10S 10H 4C", "4C 10S 6H"):
                ex = TvangstabbeExercise(hand=hand, table=table)
                ex.hand_row.select(["10S" if "10S" in hand and hand != "4C 10S 6H" else "4C"])
                ex.check()
                said[lang, hand] = ex.message.split("\n")[-1]
    assert said["sv", "10C 10S 4C"] == "Din 10♣ kunde också göra det: du väljer själv vilket kort du spelar."
    assert said["sv", "10C 10S 10H 4C"] == "Dina 10♣ och 10♥ kunde också göra det: du väljer själv vilket kort du spelar."
    assert said["en", "10C 10S 4C"] == "Your 10♣ could do it too; with several such cards you choose."
    assert said["en", "10C 10S 10H 4C"] == "Your 10♣ and 10♥ could do it too; with several such cards you choose."
    with use_language("sv"):
        ex = TvangstabbeExercise(hand="4C 5S 6H", table="9S 2C")
        ex.hand_row.select(["4C"])
        ex.check()
        assert "Här blir det alltså ingen tvångstabbe." in ex.message


def test_the_words_issue_19_corrected_in_swedish():
    """The safest-card task asks for the card that gives *you* the fewest points (misère), the
    free capture rule is "Fritt val", and a record file is a "givfil"."""
    from krypteach.i18n import _
    from krypteach.widgets.puzzle_widget import _HOW

    with use_language("sv"):
        picker = RulesPicker()
        viewer = ReplayViewer()
        assert _(_HOW["safest-card"]) == (
            "Välj kortet på handen som ger dig minst poäng den här turen och tryck på <b>Rätta</b>.")
    assert "Fritt val, som i vanligt kasino" in [label for label, _v in picker.controls["capture"].options]
    assert viewer.upload.description == "Öppna en givfil" and "En givfil är JSON Lines" in viewer.upload_help.value
    assert _(_HOW["safest-card"]).startswith("Select the card in your hand that gives you the fewest points")


def test_the_menus_of_presets_and_computer_players_name_them_in_the_pages_language():
    """A Swedish page's menus showed the presets' keys (``table-grows-by-creeping — Inga nya kort …``)
    and the bot levels' (``random | careful | expert``): each now has a name in the page's language,
    the key staying the value (the classroom file's, the command line's)."""
    from krypteach.engine.rules import PRESETS
    from krypteach.widgets import GameTable, VariantLab

    with use_language("sv"):
        picker = RulesPicker(games=("krypkasino", "kasino"))
        table, lab = GameTable(seed=1), VariantLab()
    labels = [label for label, _key in picker.preset.options]
    assert [key for _label, key in picker.preset.options][:2] == ["krypkasino", "table-grows-by-creeping"]
    assert labels[1] == "Bordet växer bara av kryp – Inga nya kort till bordet efter första utdelningen: " \
                        "bordet växer bara när kort kryper"
    keys = [key for key in PRESETS if "-" in key]
    assert [label for label in labels if any(key in label for key in keys)] == [], labels
    for menu in (table.bot_level, lab.bot_level):
        assert list(menu.options) == [("slumpis", "random"), ("försiktig", "careful"), ("expert", "expert")]
    with use_language("en"):
        assert RulesPicker().preset.options[1][0].startswith("Table grows by creeping — After the first deal")
        assert [label for label, _key in GameTable(seed=1).bot_level.options] == ["random", "careful", "expert"]
