# inferopt: two commands do all set-up on a fresh machine with Python 3.11:
#   make repro   -> .venv with the locked environment, then `dvc repro` (default scale)
#   make test    -> .venv if needed, then the whole test suite (pytest + nbval)
# Other targets: make review (the paper-scale verdicts and figures, from the committed runs, in seconds)
#   | repro-paper P=A|B|C|D (one paper, default scale) | lab [LAB_ARGS=...] | paper | reports
#   | plots [REV=...] | readme-table | lock | plots-template | clean-venv

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
# The stamp holds the folder the venv was made for: a copied project folder would otherwise
# run the original's tools and import the original's `inferopt` (editable install, absolute path).
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock
UV_VERSION := 0.13.9
TOOLS  := build/tools
# DVC and the notebooks' python3 kernel must come from the venv: put it first on PATH.
export PATH := $(CURDIR)/$(BIN):$(PATH)
export DVC_NO_ANALYTICS := 1
export PYTHONHASHSEED := 0
export MPLBACKEND := Agg

ifneq ($(wildcard $(STAMP)),)
ifneq ($(shell cat $(STAMP)),$(CURDIR))
$(info .venv was made for $(shell cat $(STAMP)), not $(CURDIR) (a copied folder?): rebuilding it)
$(shell rm -f $(STAMP))
endif
endif

# JupyterLab refuses to start as root without --allow-root (containers, CI machines).
LAB_ARGS ?=
ROOT_ARGS := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: repro repro-paper test outputs lab paper reports readme-table review venv lock plots plots-template clean-venv

venv: $(STAMP)

# Exactly the locked environment (every package, version and hash), then inferopt itself.
$(STAMP): $(LOCK) pyproject.toml
	$(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	echo $(CURDIR) > $(STAMP)

# Re-resolve the whole environment from pyproject.toml's pins (after changing a pin):
# every transitive package pinned with its hashes, for Python 3.11 on every platform.
lock:
	test -x $(TOOLS)/bin/uv || ($(PYTHON) -m venv $(TOOLS) && $(TOOLS)/bin/pip install --quiet uv==$(UV_VERSION))
	$(TOOLS)/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --universal --python-version 3.11 --quiet -o $(LOCK)

repro: $(STAMP)
	dvc repro

test: $(STAMP)
	$(BIN)/python -m pytest

# One paper's stages at the default scale (with the data and stripped notebooks they need), e.g.
# `make repro-paper P=D` = `dvc repro --glob 'D[0-9]*'` (D1-D5); the front page is rewritten when it exists.
P ?=
repro-paper: $(STAMP)
	@case "$(P)" in A|B|C|D) ;; *) echo "make repro-paper P=A|B|C|D (got P='$(P)')"; exit 2;; esac
	dvc repro --glob '$(P)[0-9]*'
	@if [ -f reports/index.html ]; then dvc repro --single-item report; \
	else echo "no reports/index.html yet: \`make repro\` builds the front page"; fi

# Store a notebook's outputs at its tiny defaults, for nbval (`make outputs NB=notebooks/B5_maxent_dependent.ipynb`): executed
# under the neutral arithmetic nbval's kernels use (inferopt.experiment.blas.neutral_environment; a plain nbconvert on an
# AVX-512 processor stores other last bits, and nbval then fails).
NB ?=
outputs: $(STAMP)
	@test -n "$(NB)" || { echo "make outputs NB=notebooks/<file>.ipynb"; exit 2; }
	$(BIN)/python -c 'import os, subprocess, sys; from inferopt.experiment.blas import neutral_environment; sys.exit(subprocess.call([sys.argv[1], "nbconvert", "--to", "notebook", "--execute", "--inplace", *sys.argv[2:]], env={**neutral_environment(), **os.environ}))' $(BIN)/jupyter $(NB)

# JupyterLab rooted at the project (params.yaml, reports/ and docs/ open from Lab), showing notebooks/.
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/notebooks $(ROOT_ARGS) $(LAB_ARGS)

# The papers' settings (params.yaml overlaid by params_paper.yaml) into reports/paper/, never
# touching the default scale's reports/: `make paper ID=A3` one experiment (IDS="A4 A7" several),
# `make paper` all; a plan (estimated time, workers) prints first (PAPER_ARGS=--dry-run: only
# the plan). WORKERS=N sets n_jobs;
# INFEROPT_DASK_SCHEDULER=tcp://host:8786 sends trials to a Dask cluster. Then README.md's results
# table is rewritten, and the front page (the report stage alone) when the default scale's reports exist.
ID ?=
IDS ?= $(ID)
WORKERS ?=
PAPER_ARGS ?=
paper: $(STAMP)
	$(BIN)/python -m inferopt.pipeline paper $(IDS) $(if $(WORKERS),--workers $(WORKERS)) $(PAPER_ARGS)
ifeq ($(findstring --dry-run,$(PAPER_ARGS)),)
	$(BIN)/python -m inferopt.pipeline readme-table
	@if [ -f reports/index.html ]; then dvc repro --single-item report; \
	else echo "no reports/index.html yet: \`make repro\` builds the front page with these paper-scale verdicts"; fi
endif

# The review page (reports/review.html, reports/paper/REVIEW.md) from the committed paper-scale metrics and small figures:
# every paper-scale verdict with its figure, no run needed (the default scale's column fills in after `make repro`).
review: $(STAMP)
	$(BIN)/python -m inferopt.pipeline review
	@echo "open reports/review.html"

# README.md's results table from the committed reports/paper/metrics/ (a test fails when it is out of step).
readme-table: $(STAMP)
	$(BIN)/python -m inferopt.pipeline readme-table

reports: $(STAMP)
	dvc repro report
	@echo "open reports/index.html"

# Headline curves (dvc.yaml's `plots:`) of the workspace beside a revision's (REV: a commit or a DVC experiment,
# default HEAD), offline (the vega scripts are in .dvc/plots/offline.html). The curves are pipeline outputs, not
# in git: a revision's load from this clone's DVC cache, the workspace's after `make repro`. What cannot be
# loaded is named by DVC and left out (on a fresh clone, before `make repro`: everything), never an error;
# the page itself then says which runs are missing and why (on a fresh clone it would otherwise be blank).
REV ?= HEAD
PLOTS_NOTE := <p style='font-family:sans-serif;color:firebrick;max-width:60rem'>Not drawn: the curves of RUNS. They are pipeline outputs (reports/results/), kept in the DVC cache of this clone, not in git: a fresh clone has none until <code>make repro</code> draws the workspace curves (and those of a revision whose numbers that run reproduces). The paper-scale verdicts and figures need no run: <code>make review</code>, then reports/review.html.</p>
plots: $(STAMP)
	@mkdir -p build/plots
	@echo "dvc plots diff $(REV) -o build/plots"
	@dvc plots diff $(REV) -o build/plots > build/plots/dvc.log 2>&1; status=$$?; cat build/plots/dvc.log; \
	runs=$$(sed -n "s/.*failed to load some plots for following revisions: '\(.*\)'.*/\1/p" build/plots/dvc.log); \
	if [ -n "$$runs" ] && [ -f build/plots/index.html ]; then note="$(PLOTS_NOTE)"; \
	  sed -i "s|</style></head><body>|</style></head><body>$${note%%RUNS*}$$runs$${note#*RUNS}|" build/plots/index.html; fi; \
	exit $$status
	@echo "open build/plots/index.html (curves DVC could not load, named above, are missing: \`make repro\` draws the workspace's)"

# The page template of `dvc plots` with vega, vega-lite and vega-embed inlined (DVC's own loads
# them from a CDN, so offline its charts are silently missing); committed, rebuilt with npm.
VEGA := vega@5.20.2 vega-lite@5.2.0 vega-embed@6.18.2
plots-template:
	rm -rf build/npm && mkdir -p build/npm
	cd build/npm && npm pack --silent $(VEGA) && for f in *.tgz; do mkdir -p $${f%.tgz} && tar xzf $$f -C $${f%.tgz}; done
	{ echo '<!DOCTYPE html><html><head><meta charset="utf-8">{refresh_tag}<title>DVC Plot</title>'; \
	  for js in build/npm/vega-5*/package/build/vega.min.js build/npm/vega-lite-*/package/build/vega-lite.min.js build/npm/vega-embed-*/package/build/vega-embed.min.js; do \
	    echo '<script>'; cat $$js; echo; echo '</script>'; done; \
	  echo '<style>table{border-spacing:15px}</style></head><body>{plot_divs}</body></html>'; } > .dvc/plots/offline.html

clean-venv:
	rm -rf $(VENV)
