#!/usr/bin/env python3
"""Generate Sources/Tessera/Text/UnicodeTables.swift from the Unicode Character Database.

Inputs (Debian's `unicode-data` package, Unicode 15.0.0):
  /usr/share/unicode/LineBreak.txt                       Line_Break
  /usr/share/unicode/EastAsianWidth.txt                  East_Asian_Width (F, W, H for LB30)
  /usr/share/unicode/UnicodeData.txt                     General_Category (LB1 SA -> CM for Mn/Mc; Cn for LB30b)
  /usr/share/unicode/emoji/emoji-data.txt                Extended_Pictographic (LB30b, GB11)
  /usr/share/unicode/auxiliary/GraphemeBreakProperty.txt Grapheme_Cluster_Break

Output: two two-stage lookup tables (an index of one entry per block of code points into
deduplicated blocks of one byte per code point), stored as base64 in StaticStrings and
decoded once at first use.

  line break byte:  bits 0-5  LineBreakClass raw value, LB1 already applied:
                              AI, SG, XX -> AL; SA -> CM if gc is Mn or Mc, else AL; CJ -> NS
                    bit 6     East_Asian_Width is F, W or H (LB30)
                    bit 7     Extended_Pictographic and General_Category Cn (LB30b)
  grapheme byte:    bits 0-3  GraphemeBreakProperty raw value
                    bit 7     Extended_Pictographic (GB11)

Usage: python3 scripts/gen_unicode_tables.py [UCD dir] [output file]
The output depends only on the input files (deterministic).
"""

import base64
import os
import re
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "Sources/Tessera/Text/UnicodeTables.swift")
N = 0x110000

# Order must match `LineBreakClass` in LineBreakClass.swift.
LB_CLASSES = [
    "BK", "CR", "LF", "NL", "SP", "ZW", "ZWJ", "CM", "WJ", "GL",
    "BA", "BB", "B2", "CB", "CL", "CP", "EX", "HY", "IN", "IS",
    "NS", "OP", "PO", "PR", "QU", "SY", "AL", "HL", "ID", "NU",
    "JL", "JV", "JT", "H2", "H3", "RI", "EB", "EM",
]
# Order must match `GraphemeBreakProperty` in GraphemeBreaker.swift.
GCB_VALUES = [
    "Other", "CR", "LF", "Control", "Extend", "ZWJ", "Regional_Indicator", "Prepend",
    "SpacingMark", "L", "V", "T", "LV", "LVT",
]


def path(*parts):
    return os.path.join(UCD, *parts)


def version_line(p):
    with open(p, encoding="utf-8") as f:
        return f.readline().strip().lstrip("# ").strip()


def ranges(p):
    """Yields (first, last, value) for each data line of a UCD property file."""
    with open(p, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            cps = fields[0].split("..")
            first = int(cps[0], 16)
            last = int(cps[-1], 16)
            yield first, last, fields[1]


def general_categories():
    gc = ["Cn"] * N
    first = None
    with open(path("UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split(";")
            cp = int(fields[0], 16)
            name, cat = fields[1], fields[2]
            if name.endswith(", First>"):
                first = cp
                continue
            if name.endswith(", Last>"):
                for c in range(first, cp + 1):
                    gc[c] = cat
                first = None
                continue
            gc[cp] = cat
    return gc


def line_break(gc):
    lb = ["XX"] * N
    # Defaults for unlisted code points, from the header of LineBreak.txt 15.0 (the file
    # also lists these ranges explicitly; applying them first changes nothing if it does).
    for a, b, v in [(0x3400, 0x4DBF, "ID"), (0x4E00, 0x9FFF, "ID"), (0xF900, 0xFAFF, "ID"),
                    (0x20000, 0x2FFFD, "ID"), (0x30000, 0x3FFFD, "ID"),
                    (0x1F000, 0x1FAFF, "ID"), (0x1FC00, 0x1FFFD, "ID"), (0x20A0, 0x20CF, "PR")]:
        for c in range(a, b + 1):
            lb[c] = v
    for a, b, v in ranges(path("LineBreak.txt")):
        for c in range(a, b + 1):
            lb[c] = v
    # LB1 (no dictionary and no tailoring): resolve AI, SG, XX, SA and CJ.
    for c in range(N):
        v = lb[c]
        if v in ("AI", "SG", "XX"):
            lb[c] = "AL"
        elif v == "SA":
            lb[c] = "CM" if gc[c] in ("Mn", "Mc") else "AL"
        elif v == "CJ":
            lb[c] = "NS"
    return lb


def east_asian_fwh():
    ea = ["N"] * N
    for a, b, v in [(0x3400, 0x4DBF, "W"), (0x4E00, 0x9FFF, "W"), (0xF900, 0xFAFF, "W"),
                    (0x20000, 0x2FFFD, "W"), (0x30000, 0x3FFFD, "W")]:
        for c in range(a, b + 1):
            ea[c] = v
    for a, b, v in ranges(path("EastAsianWidth.txt")):
        for c in range(a, b + 1):
            ea[c] = v
    return [v in ("F", "W", "H") for v in ea]


def extended_pictographic():
    ep = [False] * N
    for a, b, v in ranges(path("emoji", "emoji-data.txt")):
        if v == "Extended_Pictographic":
            for c in range(a, b + 1):
                ep[c] = True
    return ep


def grapheme_break():
    g = ["Other"] * N
    for a, b, v in ranges(path("auxiliary", "GraphemeBreakProperty.txt")):
        for c in range(a, b + 1):
            g[c] = v
    return g


def two_stage(values, shift):
    """Splits `values` (bytes, one per code point) into blocks of 1 << shift; returns
    (index, blocks) with blocks deduplicated in first-seen order."""
    size = 1 << shift
    seen = {}
    index = []
    blocks = bytearray()
    for start in range(0, N, size):
        block = bytes(values[start:start + size])
        if block not in seen:
            seen[block] = len(seen)
            blocks += block
        index.append(seen[block])
    return index, bytes(blocks)


def best_layout(values):
    best = None
    for shift in (5, 6, 7, 8):
        index, blocks = two_stage(values, shift)
        width = 1 if max(index) < 256 else 2
        total = len(index) * width + len(blocks)
        if best is None or total < best[0]:
            best = (total, shift, width, index, blocks)
    _, shift, width, index, blocks = best
    raw = bytearray()
    for i in index:
        raw += i.to_bytes(width, "little")
    return shift, width, bytes(raw), blocks


def swift_base64(name, data):
    text = base64.b64encode(data).decode("ascii")
    lines = [text[i:i + 120] for i in range(0, len(text), 120)]
    body = "\n".join(lines)
    return f'    static let {name}: StaticString = """\n{body}\n"""\n'


def main():
    gc = general_categories()
    lb = line_break(gc)
    fwh = east_asian_fwh()
    ep = extended_pictographic()
    gcb = grapheme_break()

    lb_index = {name: i for i, name in enumerate(LB_CLASSES)}
    gcb_index = {name: i for i, name in enumerate(GCB_VALUES)}
    lb_bytes = bytearray(N)
    gcb_bytes = bytearray(N)
    for c in range(N):
        v = lb_index[lb[c]]
        if fwh[c]:
            v |= 0x40
        if ep[c] and gc[c] == "Cn":
            v |= 0x80
        lb_bytes[c] = v
        g = gcb_index[gcb[c]]
        if ep[c]:
            g |= 0x80
        gcb_bytes[c] = g

    lb_shift, lb_width, lb_stage1, lb_stage2 = best_layout(lb_bytes)
    g_shift, g_width, g_stage1, g_stage2 = best_layout(gcb_bytes)

    sources = [
        version_line(path("LineBreak.txt")),
        version_line(path("EastAsianWidth.txt")),
        "UnicodeData.txt (General_Category; the file carries no version line)",
        version_line(path("emoji", "emoji-data.txt")) + " (" + emoji_version() + ")",
        version_line(path("auxiliary", "GraphemeBreakProperty.txt")),
    ]
    out = []
    out.append("// GENERATED FILE, DO NOT EDIT. Regenerate with `python3 scripts/gen_unicode_tables.py`.\n")
    out.append(f"// Unicode {ucd_version()}, from Debian's unicode-data files:\n")
    for s in sources:
        out.append(f"//   {s}\n")
    out.append("//\n")
    out.append("// Two two-stage tables (index per block of code points -> deduplicated blocks of one\n")
    out.append("// byte per code point), base64-encoded and decoded once at first use.\n")
    out.append("// Line break byte: bits 0-5 `LineBreakClass` with LB1 applied (AI, SG, XX -> AL;\n")
    out.append("// SA -> CM if General_Category is Mn or Mc, else AL; CJ -> NS), bit 6 East_Asian_Width\n")
    out.append("// F/W/H, bit 7 Extended_Pictographic and General_Category Cn (LB30b).\n")
    out.append("// Grapheme byte: bits 0-3 `GraphemeBreakProperty`, bit 7 Extended_Pictographic.\n\n")
    out.append("enum UnicodeTableData {\n")
    out.append(f'    static let unicodeVersion = "{ucd_version()}"\n')
    out.append(f"    static let lineBreakShift = {lb_shift}\n")
    out.append(f"    static let lineBreakIndexWidth = {lb_width}\n")
    out.append(f"    static let lineBreakIndexCount = {len(lb_stage1) // lb_width}\n")
    out.append(f"    static let lineBreakBlockBytes = {len(lb_stage2)}\n")
    out.append(f"    static let graphemeShift = {g_shift}\n")
    out.append(f"    static let graphemeIndexWidth = {g_width}\n")
    out.append(f"    static let graphemeIndexCount = {len(g_stage1) // g_width}\n")
    out.append(f"    static let graphemeBlockBytes = {len(g_stage2)}\n\n")
    out.append(swift_base64("lineBreakIndex", lb_stage1) + "\n")
    out.append(swift_base64("lineBreakBlocks", lb_stage2) + "\n")
    out.append(swift_base64("graphemeIndex", g_stage1) + "\n")
    out.append(swift_base64("graphemeBlocks", g_stage2))
    out.append("}\n")
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(out))
    print(f"wrote {OUT}: line break shift {lb_shift} index {len(lb_stage1)} B blocks {len(lb_stage2)} B; "
          f"grapheme shift {g_shift} index {len(g_stage1)} B blocks {len(g_stage2)} B")


def ucd_version():
    m = re.search(r"(\d+\.\d+\.\d+)", version_line(path("LineBreak.txt")))
    return m.group(1)


def emoji_version():
    with open(path("emoji", "emoji-data.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.search(r"Emoji Version (\d+\.\d+)", line)
            if m:
                return "Emoji " + m.group(1)
    return "emoji version unknown"


if __name__ == "__main__":
    main()
