#!/usr/bin/env python3
"""Writes plugins/credit-card.field from the card-brand table below: each brand's issuer
identification number (IIN) ranges, its card number lengths and how it groups the digits.

Usage:
    python3 scripts/generate-credit-card.py > plugins/credit-card.field && scripts/embed.sh

The table is transcribed from two published sources, named per brand:
  [W] Wikipedia, "Payment card number", section "Issuer identification number (IIN)"
      (the table of networks, IIN ranges and lengths).
  [B] Braintree's credit-card-type library, release 10.3.0 (June 2026),
      github.com/braintree/credit-card-type, src/lib/card-types.ts, and its test numbers
      (src/__tests__/index.ts).
  [R] The RuPay ranges that card forms have long used (NPCI's 508500-508999,
      606985-607984, 608001-608500, 652150-653149), with [W]'s 81 and 82.
Where ranges overlap, the more specific one names the brand (an Elo card in 4011 78 is Elo,
not Visa); the generator refuses a table in which a brand's range is hidden by an earlier
one, or two ranges overlap without one holding the other.

Design (docs/rule-language.md, "A card with brand masks"): one mask per brand and length,
named after the brand (`as visa`), chosen by the number's first digits (and its length,
where a brand has several): it groups the number as the brand prints it, checks the
length, and names the brand in every answer (`FieldResult.mask`, the HTTP API's and the
export's `mask`), so an app can show the logo. The last mask of each brand takes any length
(its condition is the prefix alone): a Visa number one digit short then fails `visa` ("A Visa
card number has 13, 16 or 19 digits") instead of looking like no card at all.
"""
import re
import sys

BRANDS = [
    # name, display name, IIN ranges (first..last, equal lengths), lengths, main length, source
    ("elo", "Elo", ["401178", "401179", "431274", "438935", "451416", "457393", "457631", "457632",
                    "504175", "506699-506778", "509000-509999", "627780", "636297", "636368",
                    "650031-650033", "650035-650051", "650405-650439", "650485-650538", "650541-650598",
                    "650700-650718", "650720-650727", "650901-650978", "651652-651679", "655000-655019",
                    "655021-655058"], [16], 16, "B"),
    ("hipercard", "Hipercard", ["606282"], [16], 16, "B"),
    ("verve", "Verve", ["506099-506198", "650002-650027", "507865-507964"], [16, 18, 19], 16, "W"),
    ("unionpay", "UnionPay", ["62", "8100-8171"], [16, 17, 18, 19], 16, "W, B (81)"),
    ("rupay", "RuPay", ["508500-508999", "606985-607984", "608001-608500", "652150-653149", "81", "82"],
     [16], 16, "R, W"),
    ("troy", "Troy", ["9792"], [16], 16, "W"),
    ("mir", "Mir", ["2200-2204"], [16, 17, 18, 19], 16, "W, B"),
    ("amex", "American Express", ["34", "37"], [15], 15, "W, B"),
    ("diners", "Diners Club", ["300-305", "36", "38", "39"], [14, 15, 16, 17, 18, 19], 14, "W, B"),
    ("jcb", "JCB", ["3528-3589"], [16, 17, 18, 19], 16, "B"),
    ("discover", "Discover", ["6011", "644-649", "65"], [16, 17, 18, 19], 16, "W"),
    ("mastercard", "Mastercard", ["51-55", "2221-2720"], [16], 16, "W, B"),
    ("maestro", "Maestro", ["493698", "500000-504174", "504176-506698", "506779-508999", "56-59", "6"],
     [12, 13, 14, 15, 16, 17, 18, 19], 16, "B (W lists 5018, 5020, 5038, 5893, 6304, 6759, 6761-6763, all inside)"),
    ("visa", "Visa", ["4"], [13, 16, 19], 16, "W"),
]

# The brands as `brands` lists them by default (every brand the table knows).
DISPLAY_ORDER = ["visa", "mastercard", "amex", "discover", "diners", "jcb", "unionpay", "maestro", "mir", "rupay",
                 "elo", "troy", "verve", "hipercard"]

# How a brand prints its numbers, where it is not in fours: (brand, length) -> group sizes.
GROUPS = {("amex", 15): [4, 6, 5], ("diners", 14): [4, 6, 4]}

# Published test numbers: Stripe's test cards (docs.stripe.com/testing), PayPal's sandbox
# cards, Braintree's test numbers [B], Adyen's point-of-sale test card (docs.adyen.com,
# "Green Adyen point-of-sale test card"). Each must pass Luhn and be of its brand.
ACCEPT = [
    ("4242424242424242", "visa", "Stripe"), ("4000056655665556", "visa", "Stripe"),
    ("4111111111111111", "visa", "PayPal"), ("4222222222222", "visa", "PayPal"),
    ("4012888888881881", "visa", "B"),
    ("5555555555554444", "mastercard", "Stripe"), ("2223003122003222", "mastercard", "Stripe"),
    ("5200828282828210", "mastercard", "Stripe"), ("5105105105105100", "mastercard", "Stripe"),
    ("378282246310005", "amex", "Stripe"), ("371449635398431", "amex", "Stripe"),
    ("6011111111111117", "discover", "Stripe"), ("6011000990139424", "discover", "Stripe"),
    ("6011981111111113", "discover", "Stripe"),
    ("3056930009020004", "diners", "Stripe"), ("36227206271667", "diners", "Stripe"),
    ("38520000023237", "diners", "PayPal"), ("30569309025904", "diners", "B"),
    ("3566002020360505", "jcb", "Stripe"), ("3530111333300000", "jcb", "B"),
    ("35308796121637357", "jcb", "B"), ("353445444300732639", "jcb", "B"),
    ("3537286818376838569", "jcb", "B"),
    ("6200000000000005", "unionpay", "Stripe"), ("6205500000000000004", "unionpay", "Stripe"),
    ("6212345678900000003", "unionpay", "B"), ("8100513433325374", "unionpay", "B"),
    ("6304000000000000", "maestro", "B"), ("6799990100000000019", "maestro", "B"),
    ("6000070736169237003", "maestro", "Adyen"),
    ("5066991111111118", "elo", "B"), ("6277809990229178", "elo", "B"),
    ("6062820524845321", "hipercard", "B"),
    ("9792100000000001", "troy", "B"), ("9792090000000004", "troy", "B"),
]

# Numbers made here (a prefix of the brand, zeros, the Luhn check digit) for brands and
# lengths no published list has: each brand's other lengths, and the brands without
# published test numbers (Mir, RuPay, Verve).
MADE = [
    ("4", 19), ("6011", 19), ("65", 16), ("644", 17), ("36", 19), ("3528", 18), ("62", 17),
    ("5018", 12), ("6759", 15), ("2200", 16), ("2204", 19), ("5085", 16), ("652150", 16), ("82", 16),
    ("506099", 16), ("650002", 18), ("507865", 19), ("2720", 16),
]


def luhn_ok(number):
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def with_check_digit(body):
    for d in "0123456789":
        if luhn_ok(body + d):
            return body + d


def made(prefix, length):
    return with_check_digit(prefix + "0" * (length - len(prefix) - 1))


WIDTH = 8  # IIN ranges are compared as ranges of 8-digit prefixes


def interval(spec):
    lo, _, hi = spec.partition("-")
    hi = hi or lo
    if len(lo) != len(hi) or int(lo) > int(hi):
        raise SystemExit(f"bad range {spec}")
    pad = WIDTH - len(lo)
    return int(lo) * 10 ** pad, (int(hi) + 1) * 10 ** pad - 1, spec


def brand_of(number):
    for name, _, ranges, *_ in BRANDS:
        head = int(number[:WIDTH].ljust(WIDTH, "0"))
        if any(lo <= head <= hi for lo, hi, _ in map(interval, ranges)):
            return name
    return None


def check_order():
    """An earlier brand's range must never hide a later one's, and ranges of different
    brands either nest (the inner one listed first) or are apart."""
    seen = []
    for name, _, ranges, *_ in BRANDS:
        for lo, hi, spec in map(interval, ranges):
            for other, olo, ohi, ospec in seen:
                if other == name or hi < olo or ohi < lo:
                    continue
                if olo <= lo and hi <= ohi:
                    raise SystemExit(f"{name} {spec} is hidden by {other} {ospec}, listed earlier")
                if not (lo <= olo and ohi <= hi):
                    raise SystemExit(f"{name} {spec} and {other} {ospec} overlap")
            seen.append((name, lo, hi, spec))


def digits_regex(lo, hi):
    """Alternatives matching the digit strings from lo to hi (equal lengths): a list of
    (regex, digits it spans)."""
    if lo == hi:
        return [(lo, len(lo))]
    if lo[0] == hi[0]:
        return [(lo[0] + r, n + 1) for r, n in digits_regex(lo[1:], hi[1:])]
    out = []
    rest = len(lo) - 1
    low_full = lo[1:] == "0" * rest
    high_full = hi[1:] == "9" * rest
    first = int(lo[0]) if low_full else int(lo[0]) + 1
    last = int(hi[0]) if high_full else int(hi[0]) - 1
    if not low_full:
        out += [(lo[0] + r, n + 1) for r, n in digits_regex(lo[1:], "9" * rest)]
    if first <= last:
        cls = str(first) if first == last else f"[{first}-{last}]" if last > first + 1 else f"[{first}{last}]"
        out.append((cls + ("" if rest == 0 else "[0-9]" if rest == 1 else f"[0-9]{{{rest}}}"), rest + 1))
    if not high_full:
        out += [(hi[0] + r, n + 1) for r, n in digits_regex("0" * rest, hi[1:])]
    return out


def trimmed(regex, digits):
    """Drops trailing [0-9] repeats, which the length part of a condition covers:
    ('65[0-9]{2}', 4) -> ('65', 2)."""
    m = re.fullmatch(r"(.*?)\[0-9\](?:\{(\d+)\})?", regex)
    if m and m.group(1):
        return m.group(1), digits - int(m.group(2) or 1)
    return regex, digits


def prefixes(ranges):
    alts = []
    for spec in ranges:
        lo, _, hi = spec.partition("-")
        for regex, n in digits_regex(lo, hi or lo):
            alts.append(trimmed(regex, n))
    return alts


def alternation(items):
    return items[0] if len(items) == 1 else "(?:" + "|".join(items) + ")"


def condition(alts, length):
    """The prefixes followed by digits up to `length` (None: any length)."""
    if length is None:
        return alternation([r for r, _ in alts]) + ".*"
    by_digits = {}
    for r, n in alts:
        by_digits.setdefault(n, []).append(r)
    parts = []
    for n, rs in sorted(by_digits.items()):
        rest = length - n
        parts.append(alternation(rs) + (f"[0-9]{{{rest}}}" if rest > 1 else "[0-9]" if rest == 1 else ""))
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


def groups(name, length):
    if (name, length) in GROUPS:
        return GROUPS[(name, length)]
    return [4] * (length // 4) + ([length % 4] if length % 4 else [])


def mask(name, length):
    return " ".join("0" * g for g in groups(name, length))


def grouped(number, name):
    out, k = [], 0
    for g in groups(name, len(number)):
        out.append(number[k:k + g])
        k += g
    return " ".join(out)


def lengths_text(lengths):
    if len(lengths) > 2 and lengths == list(range(lengths[0], lengths[-1] + 1)):
        return f"{lengths[0]} to {lengths[-1]}"
    words = [str(n) for n in lengths]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def article(word):
    return "An" if word[0] in "AEIO" else "A"   # "A UnionPay", "An Elo"


def main():
    check_order()
    if sorted(DISPLAY_ORDER) != sorted(b[0] for b in BRANDS):
        raise SystemExit("DISPLAY_ORDER must list every brand once")
    out = []
    w = out.append
    w("# GENERATED by scripts/generate-credit-card.py from its brand table (IIN ranges and lengths")
    w("# from Wikipedia's \"Payment card number\" and Braintree's credit-card-type 10.3.0; sources per")
    w("# brand below). Do not edit by hand: change the table, then run")
    w("#   python3 scripts/generate-credit-card.py > plugins/credit-card.field && scripts/embed.sh")
    w("#")
    w("# A payment card number of a major brand, grouped as the brand prints it, checked with Luhn.")
    w("# Each brand's masks are named after it (as visa): the mask chosen for a number names its")
    w("# brand in every answer (an app shows the logo), and a number of the wrong length fails")
    w("# that brand's rule. While the user types, a prefix is enough: 3 followed by 7 already takes")
    w("# the American Express grouping (4-6-5).")
    w("#")
    for name, display, ranges, lengths, main, source in BRANDS:
        w(f"#   {name:<10} {display}: {', '.join(ranges)}; {lengths_text(lengths)} digits [{source}]")
    w("# Where ranges nest, the inner one names the brand (the lines above are in that order).")
    w("field credit-card")
    w('label "Credit Card Number"')
    w('help "12 to 19 digits, grouped as on the card"')
    w('placeholder "0000 0000 0000 0000"')
    w("keyboard number-pad")
    w("autocomplete cc-number")
    w("")
    w("# credit-card(brands: \"visa mastercard\") takes only those brands' cards (names as below).")
    w(f'param brands = "{" ".join(DISPLAY_ORDER)}"')
    w("")
    w('normalize strip " -"')
    lines = []
    for name, display, ranges, lengths, main, _ in BRANDS:
        alts = prefixes(ranges)
        message = f"{article(display)} {display} card number has {lengths_text(lengths)} digits"
        others = [n for n in lengths if n != main]
        main_groups = groups(name, main)
        differs = any(groups(name, n)[:len(main_groups) - 1] != main_groups[:-1] for n in others)
        entries = ([main] if differs and others else []) + others + [None]
        for length in entries:
            lines.append((mask(name, main if length is None else length), condition(alts, length), name, message))
    width = max(len(m) for m, *_ in lines) + 2
    for m, cond, name, message in lines:
        w(f'mask {(chr(34) + m + chr(34)).ljust(width)} when /{cond}/ as {name} message "{message}"')
    w('mask-one-of $brands as brand   message "Not a card number of a brand this field takes"')
    w('checksum luhn   message "Card number is not valid"')
    w("")
    w("# Published test numbers (Stripe, PayPal, Braintree's credit-card-type, Adyen), then numbers")
    w("# made here (prefix, zeros, Luhn check digit) for lengths and brands no list has.")
    examples = [(n, b) for n, b, _ in ACCEPT] + [(made(p, l), brand_of(p)) for p, l in MADE]
    for number, brand in examples:
        if not luhn_ok(number):
            raise SystemExit(f"{number} fails Luhn")
        if brand_of(number) != brand:
            raise SystemExit(f"{number} is {brand_of(number)}, not {brand}")
        lengths = next(b[3] for b in BRANDS if b[0] == brand)
        if len(number) not in lengths:
            raise SystemExit(f"{number}: {brand} has no {len(number)}-digit numbers")
        w(f'accept "{number}" formats "{grouped(number, brand)}"')
    w('accept "5500-0000-0000-0004" formats "5500 0000 0000 0004"')
    w('accept "3714 496353 98431"')
    w('accept live "3"')
    w('accept live "3782 82"')
    w('accept live "4111 11"')
    w("# One digit short, a digit too many, a letter, a wrong check digit; 19 digits for brands")
    w("# that have none; numbers of no brand (1…, 2220…, 351…).")
    w('reject "4111 1111 1111 1112" luhn')
    w('reject "4111 1111 1111" visa luhn')
    w('reject "4111 1111 1111 111a" visa luhn')
    w('reject "37828224631000" amex luhn')
    w('reject "3622720627166" diners luhn')
    w('reject "5555 5555 5555 444" mastercard luhn')
    for prefix, brand in (("5555", "mastercard"), ("3782", "amex"), ("506699", "elo"), ("9792", "troy"),
                          ("606282", "hipercard")):
        number = made(prefix, 19)
        assert brand_of(number) == brand, (number, brand)
        w(f'reject "{number}" {brand}')
    w('reject "1234 5678 9012 3452" brand')
    w(f'reject "{made("2220", 16)}" brand')
    w('reject live "351" brand')
    w('reject live "3782 822463 100055" amex')
    w('reject live "4111 1111 1111 1111 1111" visa')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
