"""Festival kept running: one process per Python process speaks every text, as ``text2wave`` would.

``text2wave`` is a festival script: each run starts festival, loads the HTS
voice and speaks one text. Starting takes about 0.4 s (0.16 s of CPU in
festival, 0.25 s in the kernel), while speaking a lecture sentence takes less than
0.1 s, so a cold lecture (140 texts) spent about a minute of CPU starting
festival. Here festival is started once (``festival --pipe``), loads the voice
once, and is given one command per text: the same steps as ``text2wave``'s own
(``tts_file`` with its hooks, the RIFF header written last), so the WAV files
are byte for byte those of ``text2wave`` (``tests/narration/test_voice.py`` compares
them). Each command ends by writing a marker line to festival's stderr, which
is not buffered.

The process ends when its stdin closes: when the Python process exits or is
killed, festival reads end-of-file and stops.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Hashable
from pathlib import Path

from narration.kept import Kept, KeptProcess

__all__ = ["Festival", "FestivalError", "speak", "RUNNING"]

_SCRIPT = r"""
(defvar t2w_total 0)
(defvar t2w_fp nil)
(defvar t2w_utt nil)
(define (t2w_save utt)
  (if (eq? t2w_total 0)
      (wave.save.header t2w_fp (utt.wave utt) 'riff nil (list (list "numsamples" 0))))
  (set! t2w_total (+ t2w_total (get_param 'num_samples (wave.info (utt.wave utt)) 0)))
  (wave.save.data.fp (utt.wave utt) t2w_fp 'riff nil)
  (set! t2w_utt utt))
(define (t2w_one infile outfile)
  (set! t2w_total 0)
  (set! t2w_fp (fopen outfile "wb"))
  (set! tts_hooks (list utt.synth t2w_save))
  (tts_file infile (tts_find_text_mode infile auto-text-mode-alist))
  (fseek t2w_fp 0 0)
  (wave.save.header t2w_fp (utt.wave t2w_utt) 'riff nil (list (list "numsamples" t2w_total)))
  (fclose t2w_fp))
"""
"""``text2wave``'s synthesis (Debian's festival 2.5), as two functions for one text at a time."""


class FestivalError(RuntimeError):
    """Festival is missing, failed to start, or failed on a text."""


def _scheme_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Festival(KeptProcess):
    """One running festival with the voice set up by ``setup`` (a Scheme expression)."""

    def __init__(self, setup: Hashable) -> None:
        exe = shutil.which("festival")
        if exe is None:
            raise FestivalError("festival is not installed")
        super().__init__("festival", [exe, "--pipe"], FestivalError)
        try:
            self._run(f"{setup}\n{_SCRIPT}")
        except FestivalError:
            self.close()
            raise

    def speak(self, text_file: Path, wav: Path) -> None:
        """Speak the text in ``text_file`` into ``wav`` (RIFF), as ``text2wave -o wav text_file`` does."""
        self._run(f"(t2w_one {_scheme_string(str(text_file))} {_scheme_string(str(wav))})")
        if not wav.is_file() or wav.stat().st_size <= 44:
            raise FestivalError("no audio written")

    def _run(self, commands: str) -> None:
        """Run Scheme ``commands`` and wait for them; FestivalError with festival's message if one failed."""
        marker = f"done-{uuid.uuid4().hex}"
        with self.lock:
            self.send(f'{commands}\n(format stderr "{marker}\\n")\n')
            _line, said = self.read_until(lambda line: line.strip() == marker)
        errors = [line.strip() for line in said if line.startswith("SIOD ERROR")]
        if errors:
            raise FestivalError(errors[0])


RUNNING: Kept[Festival] = Kept(Festival)
"""This process's festivals, one per voice setup."""


def speak(setup: str, text_file: Path, wav: Path) -> None:
    """Speak ``text_file`` into ``wav`` with this process's festival for ``setup`` (started when needed).

    A festival that stopped or failed is closed, and the next text starts a new one.
    """
    RUNNING.use(setup, lambda festival: festival.speak(text_file, wav))
