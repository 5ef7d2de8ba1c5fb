"""Issue 11: the views' own texts in Swedish and English: the printable rules sheet (the
CLI and /krypteach/rules render it in the current language) and the variant lab's plots."""

from __future__ import annotations

import re

from krypteach import Rules
from krypteach.cli import main
from krypteach.i18n import use_language
from krypteach.i18n.catalogs import check as check_catalogs
from krypteach.views.plots import no_plots_message
from krypteach.views.rules_sheet import rules_sheet_html


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split("<body>")[1]))


def test_the_views_catalogs_are_complete():
    assert check_catalogs(["views"]) == []


def test_the_rules_sheet_in_swedish():
    with use_language("sv"):
        page = rules_sheet_html()
    text = _text(page)
    assert '<html lang="sv">' in page and "<title>Krypkasino – regler</title>" in page
    assert "Skriv ut" in text and "Krypkasino – reglerna på en sida" in text
    assert "Alla kort tillsammans ger 42 poäng ." in text
    assert "2 spelare 8 × (4 var, 4 på bordet) + (4 var, 0 på bordet)" in text
    assert "Exempel: Bordet 9♠ 2♣ 5♦ 7♥, du spelar 9♥: ta 9♠ och 2♣+7♥; 5♦ blir kvar." in text
    assert "ett tabbekort, +5 poäng" in text and "dukning , −5 poäng" in text
    assert "du lägger 9♠ på A♥ 7♣ 3♦ och säger ”tabbe på tio”" in text
    assert "Tvångstabbe. Kan något kort på din hand ta hela bordet" in text
    assert "en giv per spelare, så att alla delar ut en gång" in text and "lägst summa vinner" in text
    # the Swedish sheet does not gloss its words in parentheses, and no English sentence is left
    for english in ("(skriv ut)", "(ord)", "Words", "Print", "the table", " points", " each", "players",
                    "you must", "The ", "When the", "creep", "capture", "Example"):
        assert english not in text, english


def test_a_variant_in_swedish():
    with use_language("sv"):
        text = _text(rules_sheet_html(Rules(last_capture_point=1, givar=4, capture="free", forced_tabbe=False,
                                            hand_size=5, ace="1")))
    assert "och klädda högen samt 1 extra poäng (det är ingen tabbe)" in text and "ger 43 poäng" in text
    assert "Ett parti är 4 givar" in text and "du väljer själv (som i vanligt kasino)" in text
    assert "Ingen tvångstabbe i den här varianten" in text and "5 kort var" in text
    assert "ess (A) räknas bara som 1" in text


def test_the_english_sheet_is_as_before():
    page = rules_sheet_html()
    assert '<html lang="en">' in page and "Print (skriv ut)" in page and "hold 42 points" in _text(page)
    assert "Alla kort" not in page


def test_the_cli_writes_the_sheet_in_the_current_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("KRYPTEACH_LANG", "sv")
    assert main(["rules-sheet"]) == 0
    swedish = capsys.readouterr().out
    with use_language("sv"):
        assert swedish == rules_sheet_html()
    assert "Krypkasino – reglerna på en sida" in swedish
    out = tmp_path / "regler.html"
    assert main(["rules-sheet", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == swedish
    monkeypatch.setenv("KRYPTEACH_LANG", "en")
    assert main(["rules-sheet"]) == 0
    assert "the rules on one page" in capsys.readouterr().out


def test_the_plots_in_swedish():
    from krypteach.play.simulate import simulate

    sims = [simulate(Rules(), 6, seed=1), simulate(Rules(table_next=0), 6, seed=1)]
    from krypteach.views.plots import compare_simulations

    with use_language("sv"):
        fig = compare_simulations(sims, ["A", "B"])
    assert [ax.get_title() for ax in fig.axes] == ["Poäng per giv och plats\n(lägre är bättre)", "Tabbar per giv",
                                                   "Givarens plats vinner given", "Given slutar med minuspoäng"]
    scores, tabbar, dealer, _ = fig.axes
    assert [t.get_text() for t in scores.get_xticklabels()] == ["plats 0", "plats 1"]
    assert scores.get_ylabel() == "poäng" and dealer.get_ylabel() == "% av givarna"
    legend = [t.get_text() for t in tabbar.get_legend().get_texts()]
    mean = f"{sims[0].tabbar_per_giv():.2f}".replace(".", ",")
    assert legend[0] == f"A: i snitt {mean}"
    assert all(t.get_text().endswith(" %") and "." not in t.get_text() for t in dealer.texts)
    english = compare_simulations(sims, ["A", "B"])
    assert english.axes[0].get_title() == "Score per giv, by seat\n(lower is better)"
    first = english.axes[1].get_legend().get_texts()[0].get_text()
    assert first == f"A: mean {sims[0].tabbar_per_giv():.2f}"


def test_no_plots_message_in_swedish():
    with use_language("sv"):
        text = no_plots_message(ImportError("No module named 'matplotlib'"))
    assert text.startswith("Diagrammen behöver matplotlib") and "pip install matplotlib" in text
    assert no_plots_message(ImportError("x")).startswith("Plots need matplotlib")


def test_the_seeds_words_in_the_views_in_swedish():
    """Issue 19: classic Kasino says "stora kasino" / "lilla kasino" (seed 004), the stock is the
    "talong", and a tie gives the point to nobody ("vid lika delas ingen poäng ut")."""
    import random

    from krypteach import Giv
    from krypteach.views.game_table import kasino_final_html
    from krypteach.views.html import giv_html

    rng = random.Random(3)
    g = Giv(Rules.preset("kasino"), seed=3)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    with use_language("sv"):
        final = kasino_final_html(g, ["Du", "Bea"], "")
        start = giv_html(Giv(Rules(), seed=3))
    assert "Kortpoäng: stora kasino (10♦) 2, lilla kasino (2♠) 1, varje ess 1, flest spader 2, flest kort 1 " \
           "(vid lika delas ingen poäng ut)." in final
    assert "storan" not in final and "lillan" not in final
    assert "· talong: " in start and "kvar i leken" not in start
    assert "Card points: stora kasino (10♦) 2, lilla kasino (2♠) 1" in kasino_final_html(g, ["You", "Bea"], "")


def test_a_givs_scores_are_a_column_a_player_so_they_fit_a_phone():
    """The scoring of a finished giv: a column a player, a row a count and the totals last, in the
    page's language with its minus sign; a Krypkasino giv's scoring cards under the table, a player's
    a line. (A column a count, with headings of several words, was cut off at 390 px: lesson 07's
    "Summa" was off the screen, and its cards a word a line.)"""
    import random
    import re

    from krypteach import Giv
    from krypteach.views.game_table import kasino_final_html, krypkasino_final_html

    def rows(html: str) -> list[list[str]]:
        table = html.split("<table>")[1].split("</table>")[0]
        return [[re.sub("<[^>]+>", "", cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
                for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table)]

    rng = random.Random(5)
    krypkasino = Giv(Rules(), seed=5)
    krypkasino.play_out(lambda g: rng.choice(g.legal_moves()))
    kasino = Giv(Rules.preset("kasino"), seed=5)
    kasino.play_out(lambda g: rng.choice(g.legal_moves()))
    res = krypkasino.result
    with use_language("sv"):
        final = krypkasino_final_html(krypkasino, ["Du", "Bea"], "")
        table = rows(final)
        assert table[0] == ["", "Du", "Bea"]
        assert [row[0] for row in table[1:]] == ["Kortpoäng", "Tabbar", "Dukningar", "Summa"]
        assert table[-1][1:] == [str(v).replace("-", "−") for v in res.scores]
        assert table[1][1:] == [str(v) for v in res.card_points]
        assert all(len(row) == 3 for row in table)
        assert "-" not in "".join(cell for row in table for cell in row)  # the minus sign, never a hyphen
        scored = final.split("</table>")[1]
        assert "Kort som gav poäng (kort för kort)" in scored
        assert re.search(r"<li>Du: [^<]*\(", scored) and re.search(r"<li>Bea: [^<]*\(", scored), scored
        table = rows(kasino_final_html(kasino, ["Du", "Bea"], ""))
        assert [row[0] for row in table] == ["", "Kort", "Spader", "Sistan",
                                             "Poäng för kort och sistan", "Tabbar", "Summa"], table
        assert table[-1][1:] == [str(v).replace("-", "−") for v in kasino.result.scores]


def test_the_scores_so_far_write_a_score_below_zero_with_the_minus_sign():
    """Lesson 07's "Scores so far" wrote a dukning's score as -4 (a hyphen); the minus sign, as elsewhere."""
    import random

    from krypteach import Giv
    from krypteach.views.game_table import scores_html

    rng = random.Random(4)
    g = Giv(Rules(), seed=4)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    assert g.running_result().scores[1] == -5
    for lang in ("en", "sv"):
        with use_language(lang):
            html = scores_html(g, ["Du", "Bea"])
        assert "<td>−5</td></tr>" in html and "-5" not in html, html
