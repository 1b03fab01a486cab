#!/usr/bin/env python3
"""Writes plugins/phone-intl.field from libphonenumber's numbering-plan metadata
(resources/PhoneNumberMetadata.xml of github.com/google/libphonenumber), and the test vectors
of Tests/Fixtures/phone-intl-examples.txt (the metadata's own example
numbers, which the tests judge with and without a region).

Usage:
    python3 scripts/generate-phone-intl.py LIBPHONENUMBER/resources/PhoneNumberMetadata.xml \\
        > plugins/phone-intl.field && scripts/embed.sh

The release is read from release_notes.txt beside resources/ (or given with
--release "9.0.35 (2026-07-16)"). Nothing here reaches the network: `make test` reads only
the generated files.

What is taken from the metadata, per region (territory): its country calling code, and the
possible lengths of its national significant numbers — the union of each number type's
<possibleLengths national="…"> (local-only lengths, dialled without an area code, are not
E.164 numbers, and numbers marked noInternationalDialling are left out, as libphonenumber's
own generalDesc leaves them out). Lengths that would make a number shorter than 7 or longer
than E.164's 15 digits are dropped (4-digit pager numbers in AT and DE). The non-geographical entities ("001": +800, +808, +870, +878, +881,
+882, +883, +888, +979) count as calling codes but are no region.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

LEFT_OUT = {"noInternationalDialling"}


def parse_lengths(text):
    """'[4-7],9' -> {4, 5, 6, 7, 9}; '-1' (none) -> set()."""
    out = set()
    for part in (text or "").split(","):
        part = part.strip()
        if not part or part == "-1":
            continue
        m = re.fullmatch(r"\[(\d+)-(\d+)\]", part)
        if m:
            out.update(range(int(m.group(1)), int(m.group(2)) + 1))
        else:
            out.add(int(part))
    return out


def read_metadata(path):
    root = ET.parse(path).getroot()
    regions, codes, examples = {}, set(), []
    for territory in root.find("territories"):
        rid, code = territory.get("id"), territory.get("countryCode")
        codes.add(code)
        lengths = set()
        for desc in territory:
            if desc.tag in LEFT_OUT or desc.tag == "generalDesc":
                continue
            possible = desc.find("possibleLengths")
            if possible is not None:
                lengths |= parse_lengths(possible.get("national"))
            example = desc.find("exampleNumber")
            if example is not None:
                examples.append((rid, code, desc.tag, example.text.strip()))
        if rid != "001":
            if rid in regions:
                sys.exit(f"region {rid} twice")
            regions[rid] = (code, sorted(n for n in lengths if 7 <= len(code) + n <= 15))
    with open(path, encoding="utf-8") as f:
        names = dict((m.group(2), m.group(1)) for m in re.finditer(r"<!-- ([^<>]+?) \((\w\w)\) -->", f.read()))
    return regions, codes, examples, names


def release_of(path, given):
    if given:
        return given
    notes = os.path.join(os.path.dirname(os.path.abspath(path)), "..", "release_notes.txt")
    try:
        with open(notes, encoding="utf-8") as f:
            first = next(line for line in f if line.strip())
    except (OSError, StopIteration):
        sys.exit("no release_notes.txt beside resources/: give --release")
    m = re.match(r"(\w+ \d+, \d{4}): v([\d.]+)", first)
    if not m:
        sys.exit(f"cannot read the release from {first!r}: give --release")
    return f"{m.group(2)} of {m.group(1)}"


def code_trie(codes):
    """Calling codes as a compact alternation: 1|7|2(?:[07]|1[12368]|…)|…"""
    def build(strings):
        if strings == [""]:
            return ""
        by_first = {}
        for s in strings:
            by_first.setdefault(s[:1], []).append(s[1:])
        ends = [f for f, rests in by_first.items() if rests == [""]]
        singles = sorted(f for f in ends if f)
        parts = []
        if singles:
            parts.append(singles[0] if len(singles) == 1 else "[" + compact(singles) + "]")
        for first, rests in sorted(by_first.items()):
            if rests == [""]:
                continue
            inner = build(sorted(rests))
            parts.append(first + inner)
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

    def compact(digits):
        ds = sorted(int(d) for d in digits)
        out, i = "", 0
        while i < len(ds):
            j = i
            while j + 1 < len(ds) and ds[j + 1] == ds[j] + 1:
                j += 1
            out += str(ds[i]) if j == i else f"{ds[i]}{ds[j]}" if j == i + 1 else f"{ds[i]}-{ds[j]}"
            i = j + 1
        return out

    return build(sorted(codes))


def runs(lengths):
    """[7, 9, 10] -> [(7, 7), (9, 10)]: the sorted lengths as runs of consecutive ones."""
    out = []
    for n in lengths:
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def length_regex(lengths):
    """[7, 9, 10] -> '(?:[0-9]{7}|[0-9]{9,10})'."""
    parts = [f"[0-9]{{{a}}}" if a == b else f"[0-9]{{{a},{b}}}" for a, b in runs(lengths)]
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


def lengths_text(lengths):
    """[7, 9, 10] -> '7, 9 or 10'; [5, 6, 7, 8, 12] -> '5 to 8 or 12'."""
    words = []
    for a, b in runs(lengths):
        words += [f"{a} to {b}"] if b >= a + 2 else [str(n) for n in range(a, b + 1)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def main():
    args = sys.argv[1:]
    release = None
    examples_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures",
                                 "phone-intl-examples.txt")
    regions_on = True
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--release":
            release = args.pop(0)
        elif flag == "--without-regions":
            regions_on = False
        else:
            sys.exit(f"unknown option {flag}")
    if len(args) != 1:
        sys.exit(__doc__)
    path = args[0]
    regions, codes, examples, names = read_metadata(path)
    if len(regions) < 200 or len(codes) < 200:
        sys.exit(f"only {len(regions)} regions and {len(codes)} calling codes read from {path}")
    release = release_of(path, release)
    out = []
    w = out.append
    w(f"# GENERATED by scripts/generate-phone-intl.py from libphonenumber's numbering-plan metadata,")
    w(f"# release {release} (resources/PhoneNumberMetadata.xml, github.com/google/libphonenumber).")
    w("# Do not edit by hand: regenerate with")
    w("#   python3 scripts/generate-phone-intl.py PhoneNumberMetadata.xml > plugins/phone-intl.field && scripts/embed.sh")
    w("#")
    w("# A phone number in the international E.164 form: +, a country calling code, then the")
    w("# national number, 7 to 15 digits in all (+683 7012 in Niue has 7). Spaces, dots, hyphens")
    w("# and parentheses may be typed anywhere and are dropped: libphonenumber prints")
    w("# +1 268-460-1234, which is stored as +12684601234, E.164's own spelling (where the calling")
    w("# code ends depends on the number, so no mask can lay it out).")
    w(f"# country-code: one of the {len(codes)} calling codes in use (the metadata's).")
    if regions_on:
        w("# phone-intl(region: \"GB\"): the number must also be one of the region's: its calling code")
        w("# and a national number of a length possible there (the union of the metadata's possible")
        w("# lengths of every type of number; each region's line below says which). Regions sharing")
        w("# a calling code (US and CA, GB and JE…) are told apart by length only, not by area code.")
    w("field phone-intl")
    w('label "Phone"')
    w('help "International form: +, country code and number, e.g. +44 20 7946 0958"')
    w('placeholder "+44 20 7946 0958"')
    w("keyboard phone")
    w("autocomplete tel")
    if regions_on:
        w("")
        w('param region = ""')
    w("")
    w('normalize strip-spaces strip ".-()"')
    w("pattern /\\+[0-9]{7,15}/   message \"Use the international form: +, country code and number (7 to 15 digits), e.g. +44 20 7946 0958\"")
    w(f"pattern /(?:[^+].*)?|\\+{code_trie(codes)}.*/ \\")
    w('    as country-code   message "No country has this calling code: check the digits after +"')
    if regions_on:
        for rid in sorted(regions):
            code, lengths = regions[rid]
            if not lengths:
                continue
            w(f'pattern /\\+{code}{length_regex(lengths)}/ if $region = "{rid}" as region-{rid.lower()} \\')
            name = f" ({names[rid]})" if rid in names else ""
            if '"' in name or "{" in name:
                sys.exit(f"{rid}: the name {name} would need escaping")
            w(f'    message "{rid}{name} numbers are +{code} and {lengths_text(lengths)} digits"')
    w("")
    w("# libphonenumber's example numbers (metadata) and its printed form; Niue's 7-digit numbers.")
    w('accept "+44 20 7946 0958" formats "+442079460958"')
    w('accept "+1 268-460-1234" formats "+12684601234"')
    w('accept "+1 (268) 464.1234" formats "+12684641234"')
    w('accept "+683 7012" formats "+6837012"')
    w('accept "+447400123456"')
    w('accept "+800 1234 5678" formats "+80012345678"')
    w('accept live "+44 20"')
    w('accept live "+"')
    w("# No +, 6 or 16 digits, calling codes that no country has (+0, +28, +999), letters.")
    w('reject "020 7946 0958" pattern')
    w('reject "44 20 7946 0958" pattern')
    w('reject "+44 123 4" pattern')
    w('reject "+1234567890123456" pattern')
    w('reject "+0 20 7946 0958" country-code')
    w('reject "+28 1234 5678" country-code')
    w('reject "+999 1234 5678" country-code')
    w('reject "+44 20 7946 095a" pattern')
    w('reject live "44" pattern')
    w('reject live "+0" country-code')
    w('reject live "+1234567890123456" pattern')
    sys.stdout.write("\n".join(out) + "\n")

    os.makedirs(os.path.dirname(examples_path), exist_ok=True)
    with open(examples_path, "w", encoding="utf-8") as f:
        f.write(f"# GENERATED by scripts/generate-phone-intl.py with plugins/phone-intl.field: the example\n")
        f.write(f"# numbers of libphonenumber's metadata, release {release}, as REGION TYPE E164 (REGION 001:\n")
        f.write("# a non-geographical entity). Numbers of types left out of E.164 (noInternationalDialling)\n")
        f.write("# and numbers shorter than 7 or longer than 15 digits are not listed.\n")
        for rid, code, kind, national in examples:
            number = "+" + code + national
            if kind in LEFT_OUT or not 7 <= len(number) - 1 <= 15:
                continue
            f.write(f"{rid} {kind} {number}\n")
    print(f"{len(regions)} regions, {len(codes)} calling codes", file=sys.stderr)


if __name__ == "__main__":
    main()
