"""Small helpers shared by the widget tests."""


def buttons(widget):
    """Every ipywidgets Button inside ``widget``, depth first."""
    out = []
    for child in getattr(widget, "children", ()):
        if child.__class__.__name__ == "Button":
            out.append(child)
        out.extend(buttons(child))
    return out
