#!/usr/bin/env python3
"""Regenerate faq.json and queries.json from the deepset-ai/COVID-QA mirror.

Source: github.com/deepset-ai/COVID-QA (Apache-2.0), commit
fb2eb5e249618457e5359806601086c635c8eb8f
  - data/faqs/faq_covidbert.csv            (FAQ entries; rows 0-110 are CDC)
  - data/eval_question_similarity_en.csv   (question_1 = FAQ question,
                                             question_2 = human paraphrase,
                                             similar = 1/0)

Usage:
  python3 prepare.py [--mirror BARE_GIT_DIR] [--out DIR] [--all-sources]

--mirror is a bare clone of github.com/deepset-ai/COVID-QA; --out defaults to
the folder of this script.

The mirror is a bare git directory; files are read with
`git --git-dir=MIRROR show COMMIT:PATH`, so no work tree is needed.
Only the Python standard library is used. Output is deterministic.
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys

COMMIT = "fb2eb5e249618457e5359806601086c635c8eb8f"
FAQ_PATH = "data/faqs/faq_covidbert.csv"
EVAL_PATH = "data/eval_question_similarity_en.csv"
# Git blob ids of the two inputs at COMMIT (checked so a different file fails loudly).
EXPECTED_BLOBS = {
    FAQ_PATH: "8045e23e6046688e0c1db5c923a5f298bd10acb5",
    EVAL_PATH: "98c3418986d5c91acf35dee5ee3169e0c72e0913",
}

CDC = "Center for Disease Control and Prevention (CDC)"
SOURCE_PREFIX = {
    CDC: "cdc",
    "World Health Organization (WHO)": "who",
    "European Centre for Disease Prevention and Control (ECDC)": "ecdc",
    "California Department of Public Health": "cdph",
    "Washington State Department of Health": "wadoh",
    "Bundesministerium für Gesundheit": "bmg",
}

# CDC entries withheld from faq.json so that their paraphrases become
# unanswerable (entryId = null) queries. Hand-picked (by CSV row index) for
# topics that no other CDC entry covers, so a correct system should abstain:
#   1  why the disease is called COVID-19      8  spread through food
#   9  warm weather and the outbreak          21  negative then positive test
#  30  what CDC is doing                      40  going on a cruise
#  70  pools and hot tubs                     78  reinfection after recovery
#  83  Biofire/Genmark respiratory panels     85  post-exposure prophylaxis
HELD_OUT_ROWS = [1, 8, 9, 21, 30, 40, 70, 78, 83, 85]

MAX_ANSWER_CHARS = 1500
ELLIPSIS = " […]"


def git_show(mirror, path):
    blob = subprocess.run(
        ["git", "--git-dir", mirror, "rev-parse", f"{COMMIT}:{path}"],
        check=True, capture_output=True, text=True).stdout.strip()
    if blob != EXPECTED_BLOBS[path]:
        sys.exit(f"unexpected blob for {path}: {blob}")
    return subprocess.run(
        ["git", "--git-dir", mirror, "show", f"{COMMIT}:{path}"],
        check=True, capture_output=True).stdout.decode("utf-8")


def clean_line(s):
    return re.sub(r"\s+", " ", s).strip()


def clean_answer(s):
    s = s.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
    # scraping artefacts: CDC link-icon alt texts glued to the link text
    s = re.sub(r"(pdf icon)?external icon", " ", s).replace("pdf icon", " ")
    s = re.sub(r" +([.,;:)])", r"\1", s)
    paras = [re.sub(r"[ \t]+", " ", p).strip() for p in re.split(r"\n\s*\n", s)]
    paras = [re.sub(r"\s*\n\s*", " ", p) for p in paras if p]
    text = "\n\n".join(paras)
    if len(text) <= MAX_ANSWER_CHARS:
        return text
    limit = MAX_ANSWER_CHARS - len(ELLIPSIS)
    head = text[:limit]
    # cut at the last paragraph or sentence end that keeps at least half the budget
    cut = max(head.rfind("\n\n"), head.rfind(". "), head.rfind(".\n"))
    if cut < limit // 2:
        cut = head.rfind(" ")
    else:
        cut += 1  # keep the full stop
    return head[:cut].rstrip() + ELLIPSIS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", default="/work/.mirror/deepset-ai+COVID-QA/repo")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--all-sources", action="store_true",
                    help="also emit the 102 non-CDC entries (WHO, ECDC, ...). They "
                         "often overlap CDC entries, so single-gold labels get noisy.")
    args = ap.parse_args()

    rows = list(csv.DictReader(io.StringIO(git_show(args.mirror, FAQ_PATH))))
    pairs = list(csv.DictReader(io.StringIO(git_show(args.mirror, EVAL_PATH))))

    # --- FAQ entries -------------------------------------------------------
    entries = []          # (row index, id, question, answer)
    first_by_question = {}  # cleaned question -> id of first row with it
    for i, r in enumerate(rows):
        if r["lang"].strip() != "en":
            continue
        src = r["source"].strip()
        if src != CDC and not args.all_sources:
            continue
        q = clean_line(r["question"])
        if q in first_by_question:       # exact duplicate question (rows 22, 23, 89)
            continue
        eid = f"{SOURCE_PREFIX[src]}-{i:03d}"
        first_by_question[q] = eid
        entries.append((i, eid, q, clean_answer(r["answer"])))

    held_out_ids = {f"cdc-{i:03d}" for i in HELD_OUT_ROWS}
    cdc_ids = {eid for _, eid, _, _ in entries if eid.startswith("cdc-")}
    assert held_out_ids <= cdc_ids, held_out_ids - cdc_ids
    faq = [{"id": eid, "question": q, "answer": a}
           for _, eid, q, a in entries if eid not in held_out_ids]

    # --- queries -----------------------------------------------------------
    # Only similar=1 pairs carry a label; similar=0 pairs are random negatives.
    targets = {}  # query -> set of gold ids, in file order
    order = []
    for p in pairs:
        if p["similar"].strip() != "1":
            continue
        query = clean_line(p["question_2"])
        gold = first_by_question[clean_line(p["question_1"])]
        if query not in targets:
            targets[query] = set()
            order.append(query)
        targets[query].add(gold)

    queries, dropped = [], {"ambiguous": 0, "identical_to_entry": 0}
    questions_by_id = {eid: q for _, eid, q, _ in entries}
    for query in order:
        gold = targets[query]
        if len(gold) != 1:               # one query labelled with two entries
            dropped["ambiguous"] += 1
            continue
        (gid,) = gold
        if query.lower() == questions_by_id[gid].lower():
            dropped["identical_to_entry"] += 1
            continue
        queries.append({"query": query,
                        "entryId": None if gid in held_out_ids else gid})

    os.makedirs(args.out, exist_ok=True)
    for name, data in (("faq.json", faq), ("queries.json", queries)):
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.write("\n")

    n_null = sum(q["entryId"] is None for q in queries)
    print(f"faq entries: {len(faq)} (held out {len(held_out_ids)}; "
          f"answers trimmed: {sum(e['answer'].endswith(ELLIPSIS) for e in faq)})")
    print(f"queries: {len(queries)} (answerable {len(queries) - n_null}, "
          f"unanswerable {n_null}); dropped {dropped}")
    print(f"entries targeted by >=1 query: "
          f"{len({q['entryId'] for q in queries if q['entryId']})}")


if __name__ == "__main__":
    main()
