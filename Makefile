# inferopt: two commands do all set-up on a fresh machine with Python 3.11:
#   make repro   -> .venv with pinned dependencies, then `dvc repro` (default scale)
#   make test    -> .venv if needed, then the whole test suite (pytest + nbval)
# Other targets: make lab | paper | reports | clean-venv

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# DVC and the notebooks' python3 kernel must come from the venv: put it first on PATH.
export PATH := $(CURDIR)/$(BIN):$(PATH)
export DVC_NO_ANALYTICS := 1
export PYTHONHASHSEED := 0
export MPLBACKEND := Agg

.PHONY: repro test lab paper reports venv clean-venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

repro: $(STAMP)
	dvc repro

test: $(STAMP)
	$(BIN)/python -m pytest

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/

# The papers' settings (params_paper.yaml), recorded as a DVC experiment; the
# workspace keeps its outputs. `git checkout params.yaml && dvc checkout` returns to default.
paper: $(STAMP)
	dvc exp run -S scale=paper

reports: $(STAMP)
	dvc repro report
	@echo "open reports/index.html"

clean-venv:
	rm -rf $(VENV)
