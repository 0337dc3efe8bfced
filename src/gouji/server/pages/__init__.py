"""Pages served as they are built here: the installable web app (manifest, service worker)
and the rules pages."""
