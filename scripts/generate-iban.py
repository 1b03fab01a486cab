#!/usr/bin/env python3
"""Writes plugins/iban.field from the SWIFT IBAN Registry (ISO 13616), the official list of
the countries that issue IBANs, with each country's length, BBAN structure and example.

Usage:
    python3 scripts/generate-iban.py REGISTRY.txt > plugins/iban.field && scripts/embed.sh

REGISTRY.txt is the registry's tab-separated text edition (SWIFT publishes it beside the
PDF; latin-1, one column per country, quoted cells may hold line breaks). The release used
for the committed file is named in its header. Nothing here reaches the network: `make test`
reads only the generated plugin.

Design (docs/rule-language.md, "IBAN: one mask per country"): one mask per country, chosen by
its two letters (`when /DE.*/`), laid out in groups of four as IBANs are printed; its slots
are the registry's structure position by position (`n` digit -> `0`, `a` letter -> `A`,
`c` letter or digit -> `*`), so the fill check tests the length and every position, and
its message says what the country's IBAN holds. A pattern checks that the country is one
of the registry's and that the check digits are 02-98 (ISO 13616 computes them as 98 minus a
remainder); `checksum mod97` checks them.
"""
import csv
import os
import re
import sys

# Country names as a sentence uses them ("An IBAN from the Netherlands …"); the registry's
# own names are kept for every country not listed here.
DISPLAY_NAMES = {
    "AE": "the United Arab Emirates",
    "CZ": "Czechia",
    "DO": "the Dominican Republic",
    "FK": "the Falkland Islands",
    "GB": "the United Kingdom",
    "MD": "Moldova",
    "NL": "the Netherlands",
    "PS": "Palestine",
    "RU": "Russia",
    "TR": "Türkiye",
    "VA": "the Holy See (Vatican City)",
    "VG": "the British Virgin Islands",
}

CLASS_SLOT = {"n": "0", "a": "A", "c": "*"}
CLASS_WORDS = {"n": ("digit", "digits"), "a": ("letter", "letters"), "c": ("letter or digit", "letters or digits")}

# Unhappy paths every release keeps (checked by `formulary types test iban`), and live prefixes.
TRAILER = """
# Typing: a prefix is judged against its country's mask as the user types it.
accept live "D"
accept live "X"
accept live "DE89 3704"
accept live "gb29 nwbk"
# Wrong values: one character short or long, a letter where the country has digits (and a
# digit where it has letters), check digits that do not match or are out of range, and codes
# of countries without IBANs (XX is none, the United States has no IBANs).
reject "DE89 3704 0044 0532 0130 01" mod97
reject "DE89 3704 0044 0532 0130 0" mask mod97
reject "DE89 3704 0044 0532 0130 000" mask mod97
reject "DE89 3704 0044 0532 0130 0A" mask mod97
reject "GB29 NWB1 6016 1331 9268 19" mask mod97
reject "NO93 8601 1117 94" mask mod97
reject "RU03 0445 2522 5408 1781 0538 0913 1041" mask mod97
reject "XX89 3704 0044 0532 0130 00" pattern mod97
reject "US64 SVBK US6S 3300 9673 86" pattern mod97
reject "1289 3704 0044 0532 0130 00" pattern mod97
reject live "XX" pattern
reject live "DE8A" mask pattern
reject live "DE89 3704 0044 0532 0130 001" mask
"""


def read_registry(path):
    with open(path, encoding="latin-1", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quotechar='"'))
    table = {row[0].strip(): row[1:] for row in rows if row and row[0].strip()}
    countries = []
    codes = table["IBAN prefix country code (ISO 3166)"]
    for i, code in enumerate(codes):
        code = code.strip()
        if not code:
            continue
        cell = lambda key: table[key][i].strip() if i < len(table[key]) else ""
        countries.append({
            "code": code,
            "name": cell("Name of country"),
            "includes": cell("Country code includes other countries/territories"),
            "bban": cell("BBAN structure").replace(" ", ""),
            "structure": cell("IBAN structure").replace(" ", ""),
            "length": int(cell("IBAN length")),
            "example": cell("IBAN electronic format example").replace(" ", ""),
        })
    return countries


def release_of(path):
    """'release 102 of June 2026' from a file named like swift_iban_registry_202606.r102.txt."""
    m = re.search(r"(\d{4})(\d{2})\.r(\d+)", os.path.basename(path))
    if not m:
        return os.path.basename(path)
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    return f"release {m.group(3)} of {months[int(m.group(2)) - 1]} {m.group(1)}"


def parse_structure(text):
    """'8!n10!n' -> [(8, 'n'), (10, 'n')]; only fixed-length ('!') parts occur in IBANs."""
    parts = re.findall(r"(\d+)!([nac])", text)
    if "".join(f"{n}!{c}" for n, c in parts) != text:
        raise SystemExit(f"unexpected structure {text!r}")
    return [(int(n), c) for n, c in parts]


def mod97(iban):
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97


def slots_of(country):
    """The structure as one class letter per character of the IBAN, checked against the
    registry's other columns and the example."""
    code, structure = country["code"], country["structure"]
    if not structure.startswith(code + "2!n"):
        raise SystemExit(f"{code}: IBAN structure {structure!r} does not start with {code}2!n")
    bban = parse_structure(structure[len(code) + 3:])
    if sum(n for n, _ in bban) != sum(n for n, _ in parse_structure(country["bban"])):
        raise SystemExit(f"{code}: the BBAN structure and the IBAN structure differ in length")
    classes = "aann" + "".join(c * n for n, c in bban)
    if len(classes) != country["length"]:
        raise SystemExit(f"{code}: the structure gives {len(classes)} characters, the registry says {country['length']}")
    example = country["example"]
    if len(example) != len(classes) or not example.startswith(code) or mod97(example) != 1:
        raise SystemExit(f"{code}: the registry's example {example} does not fit its own structure")
    for ch, c in zip(example, classes):
        ok = ch.isdigit() if c == "n" else (ch.isalpha() and ch.isascii() and ch.isupper()) if c == "a" else ch.isalnum()
        if not ok:
            raise SystemExit(f"{code}: the registry's example {example} has {ch!r} where the structure says {c}")
    return classes, bban


def grouped(text):
    return " ".join(text[i:i + 4] for i in range(0, len(text), 4))


def describe(first, bban):
    """(['GB', '2 check digits'], '4!a6!n8!n') -> 'GB, 2 check digits, 4 letters and 14 digits'
    (runs of one class merged)."""
    runs = []
    for n, c in bban:
        if runs and runs[-1][1] == c:
            runs[-1][0] += n
        else:
            runs.append([n, c])
    words = first + [f"{n} {CLASS_WORDS[c][0 if n == 1 else 1]}" for n, c in runs]
    return ", ".join(words[:-1]) + " and " + words[-1]


def country_pattern(codes):
    """Two-letter codes as a compact alternation grouped by first letter: A[DELTZ]|B[AEG…]…"""
    by_first = {}
    for code in sorted(codes):
        by_first.setdefault(code[0], []).append(code[1])
    parts = []
    for first, seconds in sorted(by_first.items()):
        parts.append(first + (seconds[0] if len(seconds) == 1 else "[" + "".join(seconds) + "]"))
    return "|".join(parts)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    countries = read_registry(path)
    if len(countries) < 80:
        sys.exit(f"only {len(countries)} countries read from {path}: not the registry's text edition?")
    lines = []
    out = lines.append
    covered = [c for c in countries if c["includes"] and c["includes"].upper() != "N/A"]
    out(f"# GENERATED by scripts/generate-iban.py from the SWIFT IBAN Registry, {release_of(path)}")
    out(f"# ({os.path.basename(path)}, the registry's text edition; SWIFT publishes it at")
    out("# swift.com, IBAN Registry; this copy as carried by the IbanNet project, github.com/skwasjer/IbanNet,")
    out("# src/IbanNet/Registry/Swift/Files/). Do not edit by hand: regenerate with")
    out(f"#   python3 scripts/generate-iban.py {os.path.basename(path)} > plugins/iban.field && scripts/embed.sh")
    out("#")
    out("# An International Bank Account Number (ISO 13616): a country's code, two check digits and")
    out(f"# the country's account number (BBAN). The {len(countries)} countries of the registry each fix the")
    out("# length and, position by position, where digits (0), letters (A) or either (*) stand: one")
    out("# mask per country, chosen by its code, formats the IBAN in groups of four as it is printed")
    out("# and checks all of that. The pattern checks that the country has IBANs and that the check")
    out("# digits are 02 to 98; checksum mod97 checks them against the rest (ISO 7064 MOD 97-10).")
    for c in covered:
        out(f"# {c['code']} also serves {c['includes']}: their IBANs start with {c['code']}.")
    out("field iban")
    out('label "IBAN"')
    out('help "Country code, check digits and account number"')
    out('placeholder "DE89 3704 0044 0532 0130 00"')
    out("autocapitalize all")
    out("")
    out("normalize strip-spaces uppercase")
    width = max(len(grouped("x" * c["length"])) for c in countries) + 2
    for c in countries:
        classes, bban = slots_of(c)
        mask = grouped("".join("A" if k < 2 else CLASS_SLOT[cl] for k, cl in enumerate(classes)))
        name = DISPLAY_NAMES.get(c["code"], c["name"])
        message = f"An IBAN from {name} has {c['length']} characters: {describe([c['code'], '2 check digits'], bban)}"
        if '"' in message or "\\" in message or "{" in message:
            sys.exit(f"{c['code']}: the message would need escaping: {message}")
        out(f'mask {(chr(34) + mask + chr(34)).ljust(width)} when /{c["code"]}.*/   message "{message}"')
    codes = [c["code"] for c in countries]
    out(f"pattern /(?:{country_pattern(codes)})(?:0[2-9]|[1-8][0-9]|9[0-8]).*/ \\")
    out('    message "An IBAN starts with the code of a country that has IBANs (DE, FR, GB…) and two check digits"')
    out('checksum mod97   message "The IBAN\'s check digits do not match"')
    out("")
    out('# Each country\'s example, as the registry publishes it ("IBAN electronic format example").')
    for c in countries:
        out(f'accept "{c["example"]}" formats "{grouped(c["example"])}"')
    out('accept " de89 3704 0044 0532 0130 00 " formats "DE89 3704 0044 0532 0130 00"')
    out("# A 33-character IBAN (the longest in use), from issue 28.")
    out('accept "RU0204452560040702810412345678901" formats "RU02 0445 2560 0407 0281 0412 3456 7890 1"')
    lines.extend(TRAILER.strip("\n").split("\n"))
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
