# Two commands for a new user: `make run` and `make test`. Each sets up .venv itself.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501
APT_PACKAGES := chromium postgresql librsvg2-bin kdegames-mahjongg-data-kf5 fonts-noto-cjk \
	fonts-arphic-ukai fonts-arphic-uming fonts-cns11643-kai fonts-cns11643-sung fonts-cwtex-ming fonts-cwtex-heib \
	fonts-cwtex-yen fonts-cwtex-fs fonts-cwtex-kai fonts-lxgw-wenkai fonts-wqy-zenhei

.PHONY: run test bench train train-faces train-flowers export eval eval-generalisation dataset clean

$(VENV)/.runtime: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.test: $(VENV)/.runtime
	$(PY) -m pip install -q -e '.[test]'
	# a real browser, a real PostgreSQL server, and the art tools of the photo generator
	dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES))
	touch $@

$(VENV)/.train: $(VENV)/.runtime
	$(PY) -m pip install -q -e '.[test,train]'
	touch $@

run: $(VENV)/.runtime
	$(VENV)/bin/streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

test: $(VENV)/.test
	$(PY) -m pytest

bench: $(VENV)/.runtime
	$(VENV)/bin/taiscore bench --hands 10000

N ?= 5000
SEED ?= 0
dataset: $(VENV)/.test
	$(PY) -m datasets.generate --n $(N) --seed $(SEED) $(if $(SCENES),--scenes $(SCENES))

train: $(VENV)/.train
	$(PY) -m vision.training.train $(ARGS)

train-faces: $(VENV)/.train
	$(PY) -m vision.training.faces $(ARGS)

train-flowers: $(VENV)/.train
	$(PY) -m vision.training.flowers $(ARGS)

export: $(VENV)/.train
	$(PY) -m vision.training.export $(ARGS)

eval: $(VENV)/.runtime
	$(VENV)/bin/taiscore eval $(ARGS)

# the shipped networks on unseen art and unseen scenes (rendered), beside the validation photos
eval-generalisation: $(VENV)/.test
	$(PY) -m vision.generalisation $(ARGS)

clean:
	rm -rf $(VENV) work
