"""Training and export (extra `[train]`): the only place torch and ultralytics are used."""
