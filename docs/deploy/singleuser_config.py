"""A learner's Jupyter server under JupyterHub: the lessons in Voilà as `krypteach serve`
shows them. docs/deploy/jupyterhub_config.py passes this file with ``--config``; in a
school's image copy it to /etc/jupyter/jupyter_server_config.py (docs/deploy.md)."""

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (given by Jupyter)

# Voilà 0.5 is a Jupyter server extension: on, whatever the site's config says. Learners
# land on lessons, not in JupyterLab: it stays off (and its language-server scan), which
# saves ~9 MiB per learner (measured, docs/deploy.md). A teacher who wants JupyterLab in a
# server of their own runs one without this line.
c.ServerApp.jpserver_extensions = {"voila.server_extension": True, "jupyterlab": False, "jupyter_lsp": False}

# the Voilà options of `krypteach serve` (krypteach/serve/__init__.py voila_argv):
# krypteach's template (nothing from another server), no code and no tracebacks in a page
c.VoilaConfiguration.template = "krypteach"
c.VoilaConfiguration.strip_sources = True
c.VoilaConfiguration.show_tracebacks = False
# a busy machine delays a cell's output: wait for it, and fail loudly rather than send a
# page without its game
c.VoilaExecutor.iopub_timeout = 60
c.VoilaExecutor.raise_on_iopub_timeout = True
# the static site's JupyterLite extensions, if installed, are not loaded into a served page
# (in Voilà's app they stop with an error in the console)
try:
    from krypteach.serve import lite_extensions
except ImportError:  # krypteach not in this server's environment: nothing to leave out
    pass
else:
    c.VoilaConfiguration.extension_denylist = lite_extensions()
    # Voilà's scripts and styles sent as gzip copies, as `krypteach serve` sends them (5.5 MB a
    # page otherwise, through the hub's proxy as they are): krypteach/serve/learner_server.py
    c.ServerApp.jpserver_extensions["krypteach.serve.learner_server"] = True

# MathJax from the page's own bundle: Voilà as an extension would point the page at a CDN
# (cdnjs) unless these are there and None, as they are in `krypteach serve`
c.ServerApp.tornado_settings = {"mathjax_url": None, "mathjax_config": None}

# a learner's page is a lesson, not a terminal on the server
c.ServerApp.terminals_enabled = False

# a lesson closed without a goodbye leaves its kernel: stop it after 10 idle minutes
# (a page still open keeps its kernel; the hub's idle culler stops the whole server)
c.MappingKernelManager.cull_idle_timeout = 600
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
