#!/usr/bin/env python3
"""Differential test of rpn-lsp's units of measure against GNU Units.

Generates a tape of conversions in rpn-lsp's language (one per line, each line
starting with `clear` so that its stack holds one value), runs
`SERVER eval --precision 17 TAPE` once, reads each line's stack label (value and
unit), computes the same conversions with GNU Units (`units -t -o %.17g`, all
pairs on the standard input of two processes) and compares the two numbers to 15
significant digits (relative difference <= 5e-15, exact for 0), and the unit
printed with the one asked for.  A difference fails the test unless an entry of
gnu-units-allow.txt matches its line and gives the reason.

Temperatures are affine: our °C and °F are scales, and GNU's tempC(x) and
tempF(x) are the same functions (GNU's degC/degF are differences, our Δ°C and
Δ°F).  A result on a scale is compared relative to the absolute temperature in
that scale's units (|value| + 273.15 or 459.67), as both sides go through
kelvin and -40 °F can carry the rounding of 233.15 K.

Before anything, the names below are checked against the engine's table
(Sources/RPNEngine/Units/UnitTable.swift): a unit or prefix added there and not
here fails the test, so that "every unit of the table" stays true.

  python3 Tests/Units/gnu_units.py SERVER            # the differential test
  python3 Tests/Units/gnu_units.py --gnu-only        # dry run: GNU's answers only

Coverage: every unit of the built-in table to its SI base (`ubase`) and to two
other units of its dimension, with the values 1, 26.2, 0.001 and 12345.678; every
SI prefix (q ... Q, and `u` for `µ`) on every unit that takes them, and the data
prefixes (k M G T P E Ki Mi Gi Ti Pi Ei) on `B` and `bit`; and a seeded sample of
compound expressions (`kWh`, `mi/gal`, `J/(kg*K)`, `lbf*ft`, `m^3`, ...) converted
to base and to compatible units: every member of every family once, then a seeded
random sample with other prefixes; and a few temperatures below zero.

Standard library only.  GNU Units 2.22 or later must be installed (`units`).
"""

import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from fractions import Fraction

TOLERANCE = 5e-15           # relative: 15 significant digits
DEFAULT_SEED = 20251207
DEFAULT_COMPOUNDS = 200
VALUES = ("1", "26.2", "0.001", "12345.678")

# --------------------------------------------------------------------------
# Dimensions: exponents of the SI base units in rpn-lsp's canonical order.
BASE = ("kg", "m", "s", "A", "K", "rad", "bit")
GNU_BASE = {"kg": "kg", "m": "m", "s": "s", "A": "A", "K": "K",
            "rad": "radian", "bit": "bit"}


def dim(**exps):
    return tuple(exps.get(b, 0) for b in BASE)


def dmul(a, b, k=1):
    return tuple(x + k * y for x, y in zip(a, b))


NONE = dim()
LEN, MASS, TIME = dim(m=1), dim(kg=1), dim(s=1)
VOL, AREA = dim(m=3), dim(m=2)
SPEED = dim(m=1, s=-1)
FORCE = dim(kg=1, m=1, s=-2)
ENERGY = dim(kg=1, m=2, s=-2)
POWER = dim(kg=1, m=2, s=-3)
PRESSURE = dim(kg=1, m=-1, s=-2)
CURRENT = dim(A=1)
VOLTAGE = dim(kg=1, m=2, s=-3, A=-1)
RESISTANCE = dim(kg=1, m=2, s=-3, A=-2)
FREQ = dim(s=-1)
DATA = dim(bit=1)
ANGLE = dim(rad=1)
TEMP = dim(K=1)

# --------------------------------------------------------------------------
# The built-in table.  name -> (GNU expression, dimension, prefix class, kind)
#   prefix class: None, "si" (q r y z a f p n µ/u m c d da h k M G T P E Z Y R Q)
#                 or "data" (k M G T P E Ki Mi Gi Ti Pi Ei)
#   kind: "ratio" (a factor), or "scale" (°C, °F: an offset, GNU's tempC/tempF)
# The GNU names are chosen so that they mean the same unit as ours, whatever
# the locale: GNU's `yr` is the tropical year, `h` Planck's constant, `rad` the
# radiation dose, `PS` the petasiemens, `°C` a kelvin-sized interval, `st`,
# `kn`, `BTU` and `grad` do not exist, and `gallon`, `cup`, `tablespoon`,
# `teaspoon`, `fluidounce` turn British with UNITS_ENGLISH=GB.
UNITS = {}


def unit(names, gnu, d, pclass=None, kind="ratio"):
    names = names.split()
    for n in names:
        UNITS[n] = (gnu, d, pclass, kind, names[0])


# length
unit("m metre meter", "m", LEN)
UNITS["m"] = ("m", LEN, "si", "ratio", "m")          # only `m` takes prefixes
unit("in", "inch", LEN)
unit("ft", "foot", LEN)
unit("yd", "yard", LEN)
unit("mi", "mile", LEN)
unit("nmi", "nauticalmile", LEN)
# mass
unit("g", "gram", MASS, "si")
unit("t", "tonne", MASS, "si")
unit("lb", "pound", MASS)
unit("oz", "ounce", MASS)
unit("st", "stone", MASS)
unit("ct", "metriccarat", MASS)
# time
unit("s", "s", TIME, "si")
unit("min", "minute", TIME)
unit("h", "hour", TIME)
unit("d", "day", TIME)
unit("wk", "week", TIME)
unit("yr", "julianyear", TIME)
# volume
unit("L l", "liter", VOL, "si")
unit("gal", "usgallon", VOL)
unit("qt", "usquart", VOL)
unit("pt", "uspint", VOL)
unit("cup", "uscup", VOL)
unit("floz", "usfloz", VOL)
unit("tbsp", "ustablespoon", VOL)
unit("tsp", "usteaspoon", VOL)
unit("galUK", "brgallon", VOL)
unit("ptUK", "brpint", VOL)
# area
unit("ha", "hectare", AREA)
unit("acre", "intacre", AREA)
# speed
unit("mph", "mph", SPEED)
unit("kn", "knot", SPEED)
# force
unit("N", "newton", FORCE, "si")
unit("lbf", "lbf", FORCE)
unit("kgf", "kgf", FORCE)
# energy
unit("J", "joule", ENERGY, "si")
unit("Wh", "Wh", ENERGY, "si")
unit("cal", "calorie_th", ENERGY, "si")
unit("BTU", "btu_IT", ENERGY)
unit("eV", "eV", ENERGY, "si")
# power
unit("W", "watt", POWER, "si")
unit("hp", "horsepower", POWER)
unit("PS", "metrichorsepower", POWER)
# pressure
unit("Pa", "pascal", PRESSURE, "si")
unit("bar", "bar", PRESSURE, "si")
unit("atm", "atm", PRESSURE)
unit("psi", "psi", PRESSURE)
unit("mmHg", "mmHg", PRESSURE)
unit("torr", "torr", PRESSURE)
# electricity, frequency
unit("A", "ampere", CURRENT, "si")
unit("V", "volt", VOLTAGE, "si")
unit("Ω ohm \u2126", "ohm", RESISTANCE, "si")      # U+03A9 omega, and U+2126 ohm sign
unit("Hz", "hertz", FREQ, "si")
# data
unit("B", "byte", DATA, "data")
unit("bit", "bit", DATA, "data")
# angle
unit("rad", "radian", ANGLE)
unit("° deg", "degree", ANGLE)
unit("′ arcmin", "arcmin", ANGLE)
unit("″ arcsec", "arcsec", ANGLE)
unit("grad", "gon", ANGLE)
unit("turn", "turn", ANGLE)
# temperature
unit("K", "K", TEMP, "si")
unit("°C degC", "tempC", TEMP, None, "scale")
unit("°F degF", "tempF", TEMP, None, "scale")
unit("°R", "degR", TEMP)
unit("Δ°C deltaC \u2206°C", "K", TEMP)            # U+0394 delta, U+2206 increment
unit("Δ°F deltaF \u2206°F", "degF", TEMP)

# The factors of the table as the issue states them (exact; π to 50 digits),
# in SI base units.  Only the dry run uses them: it checks that each GNU name
# above means our unit, so that a difference found later is the engine's.
PI = Fraction("3.14159265358979323846264338327950288419716939937510")
_lb, _gal, _galUK = Fraction("0.45359237"), Fraction("3.785411784e-3"), Fraction("4.54609e-3")
TABLE = {
    "m": 1, "in": Fraction("0.0254"), "ft": Fraction("0.3048"), "yd": Fraction("0.9144"),
    "mi": Fraction("1609.344"), "nmi": 1852,
    "g": Fraction(1, 1000), "t": 1000, "lb": _lb, "oz": _lb / 16, "st": 14 * _lb,
    "ct": Fraction("0.0002"),
    "s": 1, "min": 60, "h": 3600, "d": 86400, "wk": 7 * 86400,
    "yr": Fraction("365.25") * 86400,
    "L": Fraction(1, 1000), "gal": _gal, "qt": _gal / 4, "pt": _gal / 8, "cup": _gal / 16,
    "floz": _gal / 128, "tbsp": _gal / 256, "tsp": _gal / 768, "galUK": _galUK,
    "ptUK": _galUK / 8,
    "ha": 10000, "acre": Fraction("4046.8564224"),
    "mph": Fraction("1609.344") / 3600, "kn": Fraction(1852, 3600),
    "N": 1, "lbf": Fraction("4.4482216152605"), "kgf": Fraction("9.80665"),
    "J": 1, "Wh": 3600, "cal": Fraction("4.184"), "BTU": Fraction("1055.05585262"),
    "eV": Fraction("1.602176634e-19"),
    "W": 1, "hp": Fraction("745.69987158227022"), "PS": Fraction("735.49875"),
    "Pa": 1, "bar": 100000, "atm": 101325, "psi": Fraction("6894.757293168361"),
    "mmHg": Fraction("133.322387415"), "torr": Fraction(101325, 760),
    "A": 1, "V": 1, "Ω": 1, "Hz": 1, "B": 8, "bit": 1,
    "rad": 1, "°": PI / 180, "′": PI / 10800, "″": PI / 648000, "grad": PI / 200,
    "turn": 2 * PI,
    "K": 1, "°R": Fraction(5, 9), "Δ°C": 1, "Δ°F": Fraction(5, 9),
    "°C": 1, "°F": Fraction(5, 9),                  # kelvin = factor * (x + zero)
}
TABLE_ZERO = {"°C": Fraction("273.15"), "°F": Fraction("459.67")}  # in the scale's own units

# Our prefix, GNU's name for it (None: GNU Units 2.22 lacks it, so its factor
# is written as a number), its factor as GNU should read it.
SI_PREFIXES = [
    ("q", "quecto", "1e-30"), ("r", "ronto", "1e-27"), ("y", "yocto", "1e-24"),
    ("z", "zepto", "1e-21"), ("a", "atto", "1e-18"), ("f", "femto", "1e-15"),
    ("p", "pico", "1e-12"), ("n", "nano", "1e-9"), ("µ", "micro", "1e-6"),
    ("\u03bc", "micro", "1e-6"), ("u", "micro", "1e-6"), ("m", "milli", "1e-3"), ("c", "centi", "1e-2"),
    ("d", "deci", "1e-1"), ("da", "deca", "1e1"), ("h", "hecto", "1e2"),
    ("k", "kilo", "1e3"), ("M", "mega", "1e6"), ("G", "giga", "1e9"),
    ("T", "tera", "1e12"), ("P", "peta", "1e15"), ("E", "exa", "1e18"),
    ("Z", "zetta", "1e21"), ("Y", "yotta", "1e24"), ("R", "ronna", "1e27"),
    ("Q", "quetta", "1e30"),
]
DATA_PREFIXES = [
    ("k", "kilo", "1e3"), ("M", "mega", "1e6"), ("G", "giga", "1e9"),
    ("T", "tera", "1e12"), ("P", "peta", "1e15"), ("E", "exa", "1e18"),
    ("Ki", "kibi", "1024"), ("Mi", "mebi", "1048576"), ("Gi", "gibi", "1073741824"),
    ("Ti", "tebi", "1099511627776"), ("Pi", "pebi", "1125899906842624"),
    ("Ei", "exbi", "1152921504606846976"),
]
PREFIXES = {"si": SI_PREFIXES, "data": DATA_PREFIXES}
GNU_PREFIX = {}             # filled by probe_gnu_prefixes(): our prefix -> GNU text
SCALE_OFFSET = {"tempC": 273.15, "tempF": 459.67}   # the scale's zero, in its units

# Each unit of the table to two other units of its dimension (besides ubase).
OTHERS = {
    "m": ("ft", "mi"), "metre": ("km", "in"), "meter": ("yd", "nmi"),
    "in": ("cm", "ft"), "ft": ("in", "yd"), "yd": ("ft", "mi"),
    "mi": ("km", "nmi"), "nmi": ("km", "mi"),
    "g": ("oz", "ct"), "t": ("lb", "kg"), "lb": ("oz", "kg"), "oz": ("g", "lb"),
    "st": ("lb", "kg"), "ct": ("g", "mg"),
    "s": ("min", "h"), "min": ("s", "h"), "h": ("min", "d"), "d": ("h", "wk"),
    "wk": ("d", "yr"), "yr": ("d", "wk"),
    "L": ("gal", "galUK"), "l": ("mL", "qt"), "gal": ("L", "qt"),
    "qt": ("pt", "L"), "pt": ("cup", "mL"), "cup": ("floz", "tbsp"),
    "floz": ("mL", "tbsp"), "tbsp": ("tsp", "mL"), "tsp": ("mL", "floz"),
    "galUK": ("L", "gal"), "ptUK": ("mL", "pt"),
    "ha": ("acre", "km^2"), "acre": ("ha", "ft^2"),
    "mph": ("km/h", "kn"), "kn": ("mph", "m/s"),
    "N": ("lbf", "kgf"), "lbf": ("N", "kgf"), "kgf": ("N", "lbf"),
    "J": ("cal", "eV"), "Wh": ("J", "BTU"), "cal": ("J", "BTU"),
    "BTU": ("J", "kcal"), "eV": ("J", "zJ"),
    "W": ("hp", "PS"), "hp": ("W", "PS"), "PS": ("W", "hp"),
    "Pa": ("psi", "bar"), "bar": ("atm", "psi"), "atm": ("mmHg", "torr"),
    "psi": ("kPa", "bar"), "mmHg": ("torr", "Pa"), "torr": ("mmHg", "atm"),
    "A": ("mA", "kA"), "V": ("mV", "kV"), "Ω": ("kΩ", "ohm"), "ohm": ("Ω", "mohm"),
    "Hz": ("kHz", "MHz"),
    "B": ("bit", "kB"), "bit": ("B", "Kibit"),
    "rad": ("deg", "turn"), "°": ("arcmin", "rad"), "deg": ("°", "grad"),
    "′": ("″", "°"), "arcmin": ("arcsec", "deg"), "″": ("′", "rad"),
    "arcsec": ("arcmin", "°"), "grad": ("°", "turn"), "turn": ("°", "grad"),
    "K": ("°C", "°F"), "°C": ("°F", "°R"), "degC": ("degF", "K"),
    "°F": ("°C", "°R"), "degF": ("degC", "°R"), "°R": ("°F", "°C"),
    "Δ°C": ("Δ°F", "mK"), "deltaC": ("deltaF", "K"),
    "Δ°F": ("Δ°C", "mK"), "deltaF": ("deltaC", "K"),
    "\u2126": ("k\u2126", "mΩ"), "\u2206°C": ("Δ°F", "K"), "\u2206°F": ("\u2206°C", "°R"),
}

# Families of compound expressions; the members of a family share a dimension.
FAMILIES = {
    "energy": ["kWh", "J", "MJ", "kcal", "BTU", "eV", "N*m", "W*h", "W*s",
               "kg*m^2/s^2", "lbf*ft", "Wh", "kgf*m", "lbf*in", "hp*h"],
    "speed": ["km/h", "m/s", "mph", "kn", "ft/s", "mi/h", "nmi/h", "in/min", "cm/s"],
    "acceleration": ["m/s^2", "ft/s^2", "km/(h*s)", "N/kg", "cm/s^2", "kgf/kg"],
    "fuel economy": ["mi/gal", "km/L", "m/L", "mi/galUK", "m/mL", "km/m^3"],
    "fuel use": ["L/km", "gal/mi", "mL/m", "m^2", "mm^2", "galUK/mi", "cm^3/m"],
    "specific heat": ["J/(kg*K)", "cal/(g*K)", "BTU/(lb*Δ°F)", "kJ/(kg*K)",
                      "Wh/(kg*K)", "J/(g*Δ°C)", "m^2/(s^2*K)"],
    "density": ["g/cm^3", "kg/m^3", "lb/ft^3", "kg/L", "oz/in^3", "lb/gal",
                "t/m^3", "g/mL"],
    "force": ["kg*m/s^2", "N", "lbf", "kgf", "g*cm/s^2", "kN", "lb*ft/s^2"],
    "power": ["W", "hp", "PS", "J/s", "BTU/h", "kcal/h", "ft*lbf/s", "kW",
              "kg*m^2/s^3", "V*A", "MW"],
    "irradiance": ["W/m^2", "kW/m^2", "W/cm^2", "BTU/(h*ft^2)", "mW/cm^2", "kg/s^3"],
    "pressure": ["N/m^2", "Pa", "lbf/in^2", "psi", "kgf/cm^2", "bar", "atm",
                 "mmHg", "torr", "kPa", "hPa", "MPa", "kg/(m*s^2)", "N/mm^2"],
    "area": ["m^2", "ha", "acre", "ft^2", "km^2", "mi^2", "in^2", "cm^2", "yd^2"],
    "volume": ["m^3", "L", "gal", "ft^3", "in^3", "cm^3", "mL", "cup", "galUK",
               "yd^3", "dm^3"],
    "flow": ["L/min", "gal/min", "m^3/s", "ft^3/min", "mL/s", "m^3/h", "galUK/h"],
    "data rate": ["Mbit/s", "MB/s", "kB/s", "GiB/h", "bit/s", "KiB/s", "Gbit/min"],
    "angular speed": ["rad/s", "°/s", "turn/min", "deg/h", "turn/s", "grad/s",
                      "arcsec/yr"],
    "voltage": ["V", "W/A", "J/(A*s)", "kV", "mV", "kg*m^2/(A*s^3)"],
    "resistance": ["Ω", "V/A", "ohm", "kΩ", "W/A^2", "MΩ"],
    "charge": ["A*s", "A*h", "mA*h", "kA*s"],
    "specific energy": ["Wh/kg", "J/g", "kJ/kg", "BTU/lb", "kcal/kg", "m^2/s^2"],
    "thermal conductivity": ["W/(m*K)", "BTU/(h*ft*Δ°F)", "kcal/(h*m*K)",
                             "mW/(cm*K)"],
    "viscosity": ["Pa*s", "N*s/m^2", "kg/(m*s)", "lbf*s/ft^2", "mPa*s"],
    "linear density": ["g/m", "lb/ft", "oz/yd", "kg/km", "t/mi"],
    "mass flow": ["kg/s", "lb/h", "t/d", "g/min"],
    "specific volume": ["m^3/kg", "L/kg", "ft^3/lb", "gal/lb", "cm^3/g"],
    "momentum": ["kg*m/s", "N*s", "lbf*s", "g*cm/s"],
    "frequency": ["Hz", "kHz", "MHz", "GHz"],
}
# Prefixes the sample may put on a prefixable token of a compound.
SAMPLE_PREFIXES = {"si": ["k", "M", "G", "m", "c", "µ", "u", "n", "h", "da", "d"],
                   "data": ["k", "M", "G", "Ki", "Mi", "Gi"]}

# --------------------------------------------------------------------------
# Unit expressions.

ALIASES = {}                # every spelling -> primary spelling (metre -> m)
for _n, (_g, _d, _p, _k, _primary) in UNITS.items():
    ALIASES[_n] = _primary


def parses(token):
    """Every (prefix, unit) reading of a token: exact names and prefixed ones."""
    out = []
    if token in UNITS:
        out.append(("", token))
    for pclass, plist in PREFIXES.items():
        for p, _, _ in plist:
            rest = token[len(p):]
            if token.startswith(p) and rest in UNITS and UNITS[rest][2] == pclass:
                out.append((p, rest))
    return out


def resolve(token):
    """The reading of a token as rpn-lsp must take it: an exact name first."""
    ps = parses(token)
    if not ps:
        raise ValueError("unknown unit %r" % token)
    return ps[0]


def collides(prefix, name):
    """A prefixed spelling that means something else or reads two ways (ft = foot,
    not femtotonne)."""
    ps = parses(prefix + name)
    return ps[0] != (prefix, name) or len(set(ps)) > 1


TOKEN = re.compile(r"\s*(?:(?P<op>[*/^()·⋅])|(?P<num>-?\d+)|(?P<name>[^\s*/^()·⋅\d-]+))")


def tokenize(expr):
    expr = expr.replace("²", "^2").replace("³", "^3").replace("⁻¹", "^-1")
    pos, out = 0, []
    while pos < len(expr):
        mt = TOKEN.match(expr, pos)
        if not mt or mt.end() == pos:
            raise ValueError("cannot read unit expression %r at %d" % (expr, pos))
        pos = mt.end()
        if mt.group("op"):
            out.append(("op", "*" if mt.group("op") in "·⋅" else mt.group("op")))
        elif mt.group("num") is not None:
            out.append(("num", mt.group("num")))
        elif mt.group("name"):
            out.append(("name", mt.group("name")))
    return out


class ExprParser:
    """expr := term (('*'|'/') term)* ; term := atom ('^' int)? ;
    atom := name | '1' | '(' expr ')'.  Left-associative, as GNU Units reads it."""

    def __init__(self, expr):
        self.expr, self.toks, self.i = expr, tokenize(expr), 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def parse(self):
        r = self.expr_()
        if self.i != len(self.toks):
            raise ValueError("trailing text in unit expression %r" % self.expr)
        return r

    def expr_(self):
        acc = self.term()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            rhs = self.term()
            acc = Counter(acc)
            for k, v in rhs.items():
                acc[k] += v if op == "*" else -v
        return acc

    def term(self):
        a = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            kind, n = self.take()
            if kind != "num":
                raise ValueError("exponent expected in %r" % self.expr)
            a = Counter({k: v * int(n) for k, v in a.items()})
        return a

    def atom(self):
        kind, v = self.take()
        if kind == "op" and v == "(":
            r = self.expr_()
            if self.take() != ("op", ")"):
                raise ValueError("')' expected in %r" % self.expr)
            return r
        if kind == "num" and v == "1":
            return Counter()
        if kind == "name":
            p, u = resolve(v)
            p = "µ" if p in ("u", "\u03bc") else p
            return Counter({(p, ALIASES[u]): 1})
        raise ValueError("unexpected %r in unit expression %r" % (v, self.expr))


def symbols(expr):
    """The expression as a multiset of (prefix, primary unit) -> exponent."""
    c = ExprParser(expr).parse()
    return Counter({k: v for k, v in c.items() if v})


def dimension(expr):
    d = NONE
    for (p, u), e in symbols(expr).items():
        d = dmul(d, UNITS[u][1], e)
    return d


def is_scale(expr):
    return expr in UNITS and UNITS[expr][3] == "scale"


def base_expr(d, names=None):
    """A dimension as a product of base units, canonical order: kg*m^2/(s^2*K)."""
    names = names or {b: b for b in BASE}
    num = [names[b] + ("^%d" % e if e != 1 else "") for b, e in zip(BASE, d) if e > 0]
    den = [names[b] + ("^%d" % -e if e != -1 else "") for b, e in zip(BASE, d) if e < 0]
    s = "*".join(num) or "1"
    if den:
        s += "/" + (den[0] if len(den) == 1 else "(" + "*".join(den) + ")")
    return s


def gnu_expr(expr):
    """Our unit expression in GNU Units' names: kWh -> (kilo Wh)."""
    out = []
    for kind, v in tokenize(expr):
        if kind != "name":
            out.append(v)
            continue
        p, u = resolve(v)
        g = UNITS[u][0]
        if UNITS[u][3] == "scale":
            raise ValueError("%s is a temperature scale, not a factor" % v)
        out.append("(%s %s)" % (GNU_PREFIX[p], g) if p else g)
    return "".join(out)


def prefix_factor(p):
    for plist in PREFIXES.values():
        for q, _, number in plist:
            if q == p:
                return Fraction(number)
    return Fraction(1)


def table_factor(expr):
    f = Fraction(1)
    for (p, u), e in symbols(expr).items():
        f *= (prefix_factor(p) * TABLE[u]) ** e
    return f


def table_value(case):
    """The exact answer the issue's table gives for a case."""
    v = Fraction(case.value)
    if is_scale(case.src):
        u = ALIASES[case.src]
        k = TABLE[u] * (v + TABLE_ZERO[u])
    else:
        k = v * table_factor(case.src)
    if case.target is None:
        return k
    if is_scale(case.target):
        u = ALIASES[case.target]
        return k / TABLE[u] - TABLE_ZERO[u]
    return k / table_factor(case.target)


# --------------------------------------------------------------------------
# The tape.

class Case:
    __slots__ = ("section", "value", "src", "target", "line", "gnu_from", "gnu_to",
                 "expect_unit", "scale_target")

    def __init__(self, section, value, src, target):
        self.section, self.value, self.src, self.target = section, value, src, target
        conv = "ubase" if target is None else ">" + target
        self.line = "clear %s_%s %s" % (value, src, conv)
        if is_scale(src):
            self.gnu_from = "%s(%s)" % (UNITS[src][0], value)
        elif len(tokenize(src)) == 1:
            self.gnu_from = "%s %s" % (value, gnu_expr(src))
        else:
            self.gnu_from = "%s (%s)" % (value, gnu_expr(src))
        d = TEMP if is_scale(src) else dimension(src)
        if target is None:
            self.gnu_to = base_expr(d, GNU_BASE)
            self.expect_unit = base_expr(d)
            self.scale_target = None
        else:
            td = TEMP if is_scale(target) else dimension(target)
            if td != d:
                raise AssertionError("%s and %s differ in dimension" % (src, target))
            self.gnu_to = UNITS[target][0] if is_scale(target) else gnu_expr(target)
            self.expect_unit = target
            self.scale_target = UNITS[target][0] if is_scale(target) else None


def table_cases():
    cases = []
    for name in UNITS:
        targets = [None] + list(OTHERS[name])
        for t in targets:
            for v in VALUES:
                cases.append(Case("table", v, name, t))
    return cases


def prefix_cases(skipped):
    cases, i = [], 0
    for name, (g, d, pclass, kind, primary) in UNITS.items():
        if not pclass:
            continue
        for p, _, _ in PREFIXES[pclass]:
            if collides(p, name):
                skipped.append(p + name)
                continue
            v, w = VALUES[i % 4], VALUES[(i + 1) % 4]
            i += 1
            cases.append(Case("prefix", v, p + name, None))
            cases.append(Case("prefix", w, name, p + name))
    return cases


def vary_prefix(rng, expr):
    """Maybe put another prefix on one prefixable token of the expression."""
    toks = tokenize(expr)
    spots = [i for i, (k, v) in enumerate(toks) if k == "name" and UNITS[resolve(v)[1]][2]]
    if not spots or rng.random() < 0.5:
        return expr
    i = rng.choice(spots)
    _, u = resolve(toks[i][1])
    for _ in range(10):
        p = rng.choice(SAMPLE_PREFIXES[UNITS[u][2]])
        if not collides(p, u):
            break
    else:
        return expr
    toks[i] = ("name", p + u)
    return "".join(v for _, v in toks)


def compound_cases(seed, count):
    rng = random.Random(seed)
    for fam, members in FAMILIES.items():
        ds = {m: dimension(m) for m in members}
        if len(set(ds.values())) != 1 or NONE in ds.values():
            raise AssertionError("family %s mixes dimensions: %r" % (fam, ds))
    names = sorted(FAMILIES)
    cases = []
    while len(cases) < count:
        members = FAMILIES[rng.choice(names)]
        src = vary_prefix(rng, rng.choice(members))
        if rng.random() < 1 / 3:
            tgt = None
        else:
            tgt = vary_prefix(rng, rng.choice([m for m in members if m != src]))
            if tgt == src:
                continue
        cases.append(Case("compound", rng.choice(VALUES), src, tgt))
    return cases


def family_cases():
    """Every member of every family, to its base and to the next member: the
    sample below is random, these are there whatever the seed."""
    cases, i = [], 0
    for members in FAMILIES.values():
        for j, m in enumerate(members):
            for t in (None, members[(j + 1) % len(members)]):
                cases.append(Case("family", VALUES[i % len(VALUES)], m, t))
                i += 1
    return cases


# Temperatures below the scales' zeros and across them (the table's values are all
# positive): affine conversions, GNU's tempC(x) and tempF(x).
TEMPERATURES = [("-40", "°C", "°F"), ("-40", "°F", "°C"), ("98.6", "°F", "°C"),
                ("-17.5", "°C", None), ("-40", "°F", None), ("-100", "degC", "°R"),
                ("-273.15", "°C", "°F"), ("-300", "°F", "K"), ("-5", "°C", "degF")]


def all_cases(seed, count):
    skipped = []
    cases = (table_cases() + [Case("temperature", v, a, b) for v, a, b in TEMPERATURES]
             + prefix_cases(skipped) + family_cases() + compound_cases(seed, count))
    return cases, skipped


# --------------------------------------------------------------------------
# The table above against Sources/RPNEngine/Units/UnitTable.swift: every name,
# which names take which prefixes, and every prefix, so that a unit added to the
# engine and not here fails the test instead of going untested.

def swift_table(path):
    """(names -> prefix class, prefix symbols) read from UnitTable.swift."""
    with open(path, encoding="utf-8") as f:
        src = f.read()

    def unescape(t):
        return re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), t)

    def strings(t):
        return [unescape(x) for x in re.findall(r'"([^"]*)"', t)]

    # The units of measure (`measures`); the currencies after them have no GNU Units factor to
    # compare (their rates are the tape's).
    atoms = re.search(r"static let measures: \[UnitAtom\] = \[(.*?)\n  \]\n", src, re.S).group(1)
    names = {}
    for chunk in atoms.split("UnitAtom(")[1:]:
        m = re.match(r"\s*\[([^\]]*)\](.*)", chunk, re.S)
        ns, rest = strings(m.group(1)), m.group(2)
        pm = re.search(r"prefixed: \[([^\]]*)\]", rest)
        pc = re.search(r"\.(si|data)\s*,\s*title:", rest)
        pclass = pc.group(1) if pc else None
        prefixed = set(strings(pm.group(1))) if pm else {ns[0]}
        for n in ns:
            names[n] = pclass if pclass and n in prefixed else None
    block = re.search(r"static let prefixes: \[UnitPrefix\] = \{(.*?)\n  \}\(\)", src, re.S).group(1)
    si = re.findall(r'\("((?:[^"\\]|\\u\{[0-9A-Fa-f]+\})+)", "[a-z]+", -?\d+\)', block)
    binary = re.findall(r'"(\w+i)": "\w+bi"', block)
    return names, {"si": [unescape(x) for x in si], "data": binary}


def table_drift(path):
    """What differs between this script's table and the engine's, as lines."""
    names, prefixes = swift_table(path)
    ours = {n: u[2] for n, u in UNITS.items()}
    out = []
    for n in sorted(set(names) | set(ours)):
        if n not in ours:
            out.append("unit %r is in the engine's table, not in gnu_units.py" % n)
        elif n not in names:
            out.append("unit %r is in gnu_units.py, not in the engine's table" % n)
        elif names[n] != ours[n]:
            out.append("unit %r takes prefixes %s in the engine, %s here" % (n, names[n], ours[n]))
    mine = {p for p, _, _ in SI_PREFIXES}
    if set(prefixes["si"]) != mine:
        out.append("SI prefixes differ: engine only %s, here only %s" % (
            sorted(set(prefixes["si"]) - mine), sorted(mine - set(prefixes["si"]))))
    binary = {p for p, _, _ in DATA_PREFIXES if p.endswith("i")}
    if set(prefixes["data"]) != binary:
        out.append("binary prefixes differ: engine %s, here %s" % (prefixes["data"], sorted(binary)))
    if not names or not prefixes["si"]:
        out.append("could not read the engine's table (its layout changed?)")
    return out


# --------------------------------------------------------------------------
# GNU Units.

GNU_ENV = dict(os.environ, LC_ALL="C", LANG="C", UNITS_ENGLISH="US")
GNU_ENV.pop("MYUNITSFILE", None)
GNU_ENV.pop("UNITSFILE", None)


def gnu(src, dst):
    """(value, None) or (None, message).  -f '' reads only the standard
    definitions (no personal ~/.units); -o %.17g prints a double in full (-d is
    capped at 15 digits)."""
    try:
        r = subprocess.run(["units", "-f", "", "-t", "-o", "%.17g", src, dst],
                           capture_output=True, text=True, env=GNU_ENV, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    out = r.stdout.strip()
    if r.returncode == 0 and not r.stderr.strip():
        try:
            return float(out), None
        except ValueError:
            pass
    return None, (out + " " + r.stderr.strip()).strip() or "exit %d" % r.returncode


def gnu_batch(pairs):
    """GNU's answers to many (from, to) pairs from one process, which reads
    `You have:` and `You want:` alternately from standard input and with -t
    prints one line per pair.  A pair GNU rejects prints a message instead, and
    one rejected in its `from` puts the rest out of step (the `to` is read as the
    next `from`); so the batch is trusted only if it printed exactly one number
    per pair and nothing on standard error, and is otherwise asked pair by pair
    (slow, but only when something is already wrong)."""
    if not pairs:
        return []
    text = "".join("%s\n%s\n" % p for p in pairs)
    if "\n" not in "".join(a + b for a, b in pairs):
        try:
            r = subprocess.run(["units", "-f", "", "-t", "-o", "%.17g"], input=text,
                               capture_output=True, text=True, env=GNU_ENV, timeout=120)
            lines = r.stdout.splitlines()
            if r.returncode == 0 and not r.stderr.strip() and len(lines) == len(pairs):
                return [(float(l), None) for l in lines]
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
    return [gnu(a, b) for a, b in pairs]


def probe_gnu_prefixes():
    """GNU Units 2.22 (Debian 12) lacks quecto, ronto, ronna, quetta (2022)."""
    probes = [(p, long, number) for plist in PREFIXES.values() for p, long, number in plist]
    answers = gnu_batch([(long, "1") for _, long, _ in probes])
    for (p, long, number), (v, _) in zip(probes, answers):
        GNU_PREFIX[p] = long if v is not None and v == float(number) else number


def run_gnu(cases, jobs):
    """In `jobs` batches at once (each a GNU Units process)."""
    pairs = [(c.gnu_from, c.gnu_to) for c in cases]
    n = max(1, jobs)
    size = -(-len(pairs) // n) or 1
    chunks = [pairs[i:i + size] for i in range(0, len(pairs), size)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=n) as ex:
        return [a for part in ex.map(gnu_batch, chunks) for a in part]


# --------------------------------------------------------------------------
# rpn-lsp eval output.
#
# Each tape line is printed as written, then spaces, then `!` if the line has a
# diagnostic, then its stack label `[...]`: `clear 1_mi >km      [1.609344_km]`.
# A value with a unit is `NUMBER_UNIT`; NUMBER is as %.17g prints it (1e+30,
# 1.6021766339999999e-19), possibly with a U+2212 minus or grouped with `,` or `_`.

LABEL = re.compile(r"^\s*(?P<bang>!)?\s*\[(?P<label>[^\[\]]*)\]\s*$")
NUMBER = re.compile(r"^(?P<num>[-+\u2212]?(?:\d{1,3}(?:[,_]\d{3})+|\d+)(?:\.\d*)?"
                    r"(?:[eE][-+\u2212]?\d+)?|[-+\u2212]?(?:inf|nan))"
                    r"(?:[_\s\u00a0\u202f]?(?P<unit>.+))?$")


def parse_label(label):
    """(number, unit text or None) or raise ValueError."""
    m = NUMBER.match(label.strip())
    if not m:
        raise ValueError("no number in label [%s]" % label)
    num = m.group("num").replace("\u2212", "-").replace(",", "").replace("_", "")
    return float(num), m.group("unit")


def read_eval(stdout, cases):
    """Per case: (number, unit, error)."""
    lines = [l for l in stdout.splitlines() if not l.startswith("==> ")]
    while lines and not lines[-1].strip():
        lines.pop()
    out = []
    for i, c in enumerate(cases):
        if i >= len(lines):
            out.append((None, None, "eval printed no line %d" % (i + 1)))
            continue
        text = lines[i]
        if not text.startswith(c.line):
            out.append((None, None, "line %d is %r" % (i + 1, text)))
            continue
        m = LABEL.match(text[len(c.line):])
        if not m:
            out.append((None, None, "no stack label: %r" % text[len(c.line):]))
            continue
        if m.group("bang"):
            out.append((None, None, "diagnostic: [%s]" % m.group("label")))
            continue
        try:
            n, u = parse_label(m.group("label"))
            out.append((n, u, None))
        except ValueError as e:
            out.append((None, None, str(e)))
    return out


# --------------------------------------------------------------------------
# Comparison.

def rel_diff(got, want, scale_target=None):
    if want == 0 or got == 0:
        return 0.0 if got == want else float("inf")
    d = abs(got - want)
    # GNU converts a temperature scale through kelvin: tempC(x) = x K + 273.15 K,
    # and back.  So a Celsius or Fahrenheit result holds the rounding of the
    # kelvin value: measure it against |result| + the scale's zero offset.
    ref = abs(want) + (SCALE_OFFSET[scale_target] if scale_target else 0.0)
    return d / ref


def same_unit(printed, expected):
    try:
        return symbols(printed) == symbols(expected)
    except (ValueError, KeyError):
        return printed.strip() == expected


def load_allow(path):
    """Lines `REGEX  # reason`: REGEX full-matches a tape line without `clear `."""
    entries = []
    if not path or not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            body = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
            if body and not (" #" in raw and raw.split(" #", 1)[1].strip()):
                raise SystemExit("%s:%d: an allow-list entry needs ` # ` and a reason (the "
                                 "definition's source)" % (path, n))
            if body:
                entries.append([re.compile(body), "%s:%d" % (path, n),
                                raw.split(" #", 1)[1].strip() if " #" in raw else "", 0])
    return entries


def allowed(entries, line):
    core = line[len("clear "):]
    for e in entries:
        if e[0].fullmatch(core):
            e[3] += 1
            return e
    return None


def fmt(x):
    return "—" if x is None else "%.17g" % x


def print_table(rows, head, out=sys.stdout):
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        out.write("  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip() + "\n")


# --------------------------------------------------------------------------

def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description="Compare rpn-lsp's unit conversions with GNU Units.")
    ap.add_argument("server", nargs="?", help="the rpn-lsp binary (not needed with --gnu-only)")
    ap.add_argument("--gnu-only", action="store_true",
                    help="dry run: print GNU's answer for every line; fail on any GNU error")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED,
                    help="seed of the compound sample (default %(default)s)")
    ap.add_argument("--compounds", type=int, default=DEFAULT_COMPOUNDS,
                    help="lines of compound expressions (default %(default)s)")
    ap.add_argument("--allow", default=os.path.join(here, "gnu-units-allow.txt"),
                    help="allow-list file (default %(default)s)")
    ap.add_argument("--tape", help="also write the generated tape to this file")
    ap.add_argument("--table", default=os.path.join(here, "..", "..", "Sources", "RPNEngine",
                                                    "Units", "UnitTable.swift"),
                    help="the engine's unit table, checked against this script's "
                         "(default %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="GNU Units processes at once")
    ap.add_argument("-q", "--quiet", action="store_true", help="dry run: counts only")
    args = ap.parse_args(argv)
    if not args.gnu_only and not args.server:
        ap.error("SERVER is required unless --gnu-only")

    drift = table_drift(args.table) if os.path.exists(args.table) else [
        "no unit table at %s (--table)" % args.table]
    if drift:
        print("gnu_units.py's table is not the engine's (%s); update UNITS and OTHERS:"
              % args.table)
        for d in drift:
            print("  " + d)
        return 1
    probe_gnu_prefixes()
    cases, skipped = all_cases(args.seed, args.compounds)
    tape = "".join(c.line + "\n" for c in cases)
    if args.tape:
        with open(args.tape, "w", encoding="utf-8") as f:
            f.write(tape)
    gnu_results = run_gnu(cases, args.jobs)
    sections = Counter(c.section for c in cases)
    summary = ("%d lines (%d unit names, %d prefixed spellings, %d compound expressions): %s; "
               "seed %d" % (
                   len(cases), len(UNITS), sections["prefix"] // 2,
                   len({x for c in cases if c.section in ("family", "compound")
                        for x in (c.src, c.target) if x}),
                   ", ".join("%d %s" % (n, s) for s, n in sections.items()), args.seed))
    if skipped:
        summary += "; prefixed spellings left out as they read otherwise: " + " ".join(skipped)
    numeric = sorted(p for p, g in GNU_PREFIX.items() if g[0].isdigit())
    if numeric:
        summary += "; GNU lacks the prefixes %s (written as numbers)" % " ".join(numeric)
    gnu_errors = [(c, e) for c, (v, e) in zip(cases, gnu_results) if e]
    # GNU's answers against the table's exact ones: a GNU name that means
    # another unit (GNU's yr is the tropical year) shows up here.
    mapping = []
    for c, (v, e) in zip(cases, gnu_results):
        if e is None:
            want = table_value(c)
            rd = rel_diff(v, float(want), c.scale_target)
            if rd > TOLERANCE:
                mapping.append((c.line, c.gnu_from, c.gnu_to, fmt(v), fmt(float(want)),
                                "%.2g" % rd))

    if args.gnu_only:
        if not args.quiet:
            rows = [(c.line, c.gnu_from, c.gnu_to, fmt(v) if v is not None else "ERROR: " + e)
                    for c, (v, e) in zip(cases, gnu_results)]
            print_table(rows, ("tape line", "GNU from", "GNU to", "GNU Units"))
        print(summary)
        if gnu_errors:
            print("%d GNU Units errors:" % len(gnu_errors))
            for c, e in gnu_errors:
                print("  %s: units '%s' '%s': %s" % (c.line, c.gnu_from, c.gnu_to, e))
        if mapping:
            print("%d GNU answers differ from the table's exact values (tolerance %g):"
                  % (len(mapping), TOLERANCE))
            print_table(mapping, ("tape line", "GNU from", "GNU to", "GNU Units", "table", "rel"))
        if gnu_errors or mapping:
            return 1
        print("GNU Units accepted all %d conversions, and each agrees with the table's "
              "exact value to 15 significant digits" % len(cases))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "gnu-units.rpn")
        with open(path, "w", encoding="utf-8") as f:
            f.write(tape)
        r = subprocess.run([args.server, "eval", "--precision", "17", path],
                           capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        print("%s eval exited %d" % (args.server, r.returncode))
        return 1
    ours = read_eval(r.stdout, cases)

    allow = load_allow(args.allow)
    failures, allowed_rows, largest = [], [], (0.0, None)
    for i, (c, (gv, ge), (ov, ou, oe)) in enumerate(zip(cases, gnu_results, ours), 1):
        why, rd = None, None
        if ge:
            why = "GNU Units: " + ge
        elif oe:
            why = oe
        else:
            rd = rel_diff(ov, gv, c.scale_target)
            if rd <= TOLERANCE and rd > largest[0]:
                largest = (rd, "line %d, %s: %s against GNU's %s" % (i, c.line, fmt(ov), fmt(gv)))
            if rd > TOLERANCE:
                why = "differs"
            elif ou is None:
                why = "no unit, expected %s" % c.expect_unit
            elif not same_unit(ou, c.expect_unit):
                why = "unit %s, expected %s" % (ou, c.expect_unit)
        if not why:
            continue
        row = (i, c.line, fmt(ov), fmt(gv), "" if rd is None else "%.2g" % rd, why)
        a = allowed(allow, c.line)
        if a:
            allowed_rows.append(row + ("%s %s" % (a[1], a[2]),))
        else:
            failures.append(row)

    print(summary)
    if largest[1]:
        print("largest difference within the tolerance: %.2g (%s)" % largest)
    if r.stderr.strip():
        print("eval wrote to standard error (%d lines), first:" % len(r.stderr.splitlines()))
        for l in r.stderr.splitlines()[:5]:
            print("  " + l)
    if allowed_rows:
        print("%d allowed differences:" % len(allowed_rows))
        print_table(allowed_rows, ("line", "tape", "rpn-lsp", "GNU Units", "rel", "why", "allowed by"))
    for e in allow:
        if not e[3]:
            print("note: allow-list entry %s matched nothing: %s" % (e[1], e[0].pattern))
    if failures:
        print("%d of %d conversions differ from GNU Units (tolerance %g):"
              % (len(failures), len(cases), TOLERANCE))
        print_table(failures, ("line", "tape", "rpn-lsp", "GNU Units", "rel", "why"))
        return 1
    if allowed_rows:
        print("%d of %d conversions agree with GNU Units to 15 significant digits; %d differ "
              "as the allow-list says" % (len(cases) - len(allowed_rows), len(cases),
                                          len(allowed_rows)))
    else:
        print("all %d conversions agree with GNU Units to 15 significant digits" % len(cases))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
