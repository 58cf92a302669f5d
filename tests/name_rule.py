"""The name rules of elfcet(1), NAMES IN THE OUTPUT, written again apart from elfcet's code
for the tests that read its output as bytes (tests/hostile-names.sh, tests/dynrun-names.sh)."""
import re


def visible(b):
    """elfcet(1), TEXT OUTPUT: \\ \\n \\r \\t, \\xHH for other controls, C1 and bidi
    controls, line separators and bytes that are not UTF-8; the rest of UTF-8 as it is."""
    out, i = bytearray(), 0
    while i < len(b):
        c = b[i]
        if c == 0x5c: out += b'\\\\'; i += 1; continue
        if c in (0x0a, 0x0d, 0x09): out += {0x0a: b'\\n', 0x0d: b'\\r', 0x09: b'\\t'}[c]; i += 1; continue
        if c < 0x20 or c == 0x7f: out += b'\\x%02x' % c; i += 1; continue
        if c < 0x80: out.append(c); i += 1; continue
        for n in (2, 3, 4):
            try:
                ch = b[i:i + n].decode('utf-8')
            except UnicodeDecodeError:
                continue
            break
        else:
            out += b'\\x%02x' % c; i += 1; continue
        cp = ord(ch)
        if 0x80 <= cp <= 0x9f or 0x2028 <= cp <= 0x202e or 0x2066 <= cp <= 0x2069:
            out += b''.join(b'\\x%02x' % x for x in b[i:i + n])
        else:
            out += b[i:i + n]
        i += n
    return bytes(out)


def terminal_safe(data):
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return False
    return not re.search('[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]', text)


def name_bytes(obj, key):
    """A name read back from JSON: its _hex member when there is one, else its UTF-8."""
    if key + '_hex' in obj:
        return bytes.fromhex(obj[key + '_hex'])
    return obj[key].encode('utf-8')
