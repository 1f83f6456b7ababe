"""The command-line front end: `gradguard check`, `rule` and `server`, output formats, the result
cache and worker processes."""
