"""The words the mention model (`core.text.mentions`) knows: units, containers, money cues and roles, scope
cues. Teaching the parse a new unit or phrasing is adding a word here (see docs/offline_language.md, "The
mention model"); the durations and currencies come from the unit tables of `core.text.units`."""

from __future__ import annotations

from core.text import units

TIME_UNITS: dict[str, str] = {
    **{w: u for w, u in units._UNIT_WORDS.items() if " " not in w and u != "business week"},
    "d": "day", "night": "day", "nights": "day", "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
    "minute": "minute", "minutes": "minute", "min": "minute", "mins": "minute",
}  # fmt: skip
"""A word after a number that makes it a duration, with its canonical unit ('weeks' -> 'week')."""

CURRENCY_SYMBOLS: dict[str, str] = {
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "usd": "USD",
    "eur": "EUR",
    "gbp": "GBP",
}
CURRENCY_AFTER: dict[str, str] = {
    **{w: c for w, c in units._CURRENCY.items() if w.isalpha() and w not in ("pound", "pounds")},
    "pound": "GBP", "pounds": "GBP", "quid": "GBP", "cent": "cents", "cents": "cents", "c": "cents", "pence": "pence",
}  # fmt: skip
"""A word after a number that makes it money; 'cents' are the message's currency / 100. 'pounds' is money only
with a price cue nearby (else a weight)."""

COINS: dict[str, float] = {"penny": 0.01, "pennies": 0.01, "nickel": 0.05, "nickels": 0.05, "dime": 0.1,
                           "dimes": 0.1, "quarters": 0.25}  # fmt: skip
"""Coins in the message's currency ('a dime a day'); 'a quarter' is the coin only when paid or a rate."""
PERIOD_LEADS = frozenset(["next", "coming", "following", "whole", "entire", "full", "upcoming", "good", "solid",
                          "single", "this"])  # fmt: skip
"""'the coming year', 'a whole month', 'the next fortnight': one period."""

MEASURES: dict[str, str] = units.MEASURES
MEASURE_UNITS = frozenset(MEASURES.values())
"""The canonical measures a parsed amount can carry ('kg', 'litre', 'lb', ...)."""
SPREAD_WORDS = (("give", "or", "take"), ("plus", "or", "minus"), ("plus", "/", "minus"), ("plus", "-", "minus"),
                ("plus", "minus"))  # fmt: skip
"""Word runs that introduce a spread ('20 a day, give or take 5', 'mean 25, plus minus 5'), never a sum."""
"""Measures a shop quotes instead of a count, with the canonical unit ('kilos' -> 'kg'); 'pounds' is 'lb' when
it is no money."""

CONTAINERS: dict[str, str] = {
    w: c
    for c, forms in {
        "crate": ("crate", "crates"), "case": ("case", "cases"), "pack": ("pack", "packs", "packet", "packets"),
        "box": ("box", "boxes"), "carton": ("carton", "cartons"), "tray": ("tray", "trays"),
        "pallet": ("pallet", "pallets"), "sack": ("sack", "sacks"), "bundle": ("bundle", "bundles"),
        "bag": ("bag", "bags"), "dozen": ("dozens",), "bunch": ("bunch", "bunches"), "row": ("row", "rows"),
        "layer": ("layer", "layers"), "stack": ("stack", "stacks"), "bucket": ("bucket", "buckets"),
        "pail": ("pail", "pails"), "set": ("set", "sets"), "bale": ("bale", "bales"), "flat": ("flat", "flats"),
    }.items()
    for w in forms
}  # fmt: skip
"""Containers holding several items: 'six crates of 24' is 6 crates x 24 items."""
CONTAINER_NOUNS = frozenset(CONTAINERS.values())
"""The containers by their one name ('box' for 'boxes')."""

ITEM_WORDS: dict[str, str] = {
    w: c
    for c, forms in {
        "unit": ("unit", "units"), "item": ("item", "items"), "piece": ("piece", "pieces", "pcs", "pc"),
        "bottle": ("bottle", "bottles"), "can": ("cans",), "jar": ("jar", "jars"), "tube": ("tube", "tubes"),
        "tin": ("tin", "tins"), "loaf": ("loaf", "loaves"), "roll": ("roll", "rolls"), "bar": ("bars",),
        "cup": ("cups",), "pair": ("pair", "pairs"), "tub": ("tub", "tubs"), "carton": (),
        "fillet": ("fillet", "fillets"), "block": ("block", "blocks"), "jug": ("jug", "jugs"), "keg": ("keg", "kegs"),
        "pouch": ("pouch", "pouches"), "canister": ("canister", "canisters"),
    }.items()
    for w in forms
}  # fmt: skip
"""Words for one item: '24 bottles' is 24 items (container 'bottle')."""

COUNT_UNITS: dict[str, str] = {
    **dict.fromkeys(["student", "students", "kid", "kids", "child", "children", "pupil", "pupils"], "student"),
    **dict.fromkeys(["rider", "riders"], "rider"), **dict.fromkeys(["bus", "buses", "busses"], "bus"),
    **dict.fromkeys(["person", "people", "customer", "customers", "client", "clients", "shopper", "shoppers",
                     "visitor", "visitors", "patient", "patients", "diner", "diners"], "person"),
    **dict.fromkeys(["family", "families"], "family"), **dict.fromkeys(["school", "schools"], "school"),
    **dict.fromkeys(["employee", "employees", "worker", "workers", "stylist", "stylists", "barber", "barbers",
                     "hairdresser", "hairdressers", "clerk", "clerks", "cashier", "cashiers", "technician",
                     "technicians", "mechanic", "mechanics", "driver", "drivers", "baker", "bakers", "barista",
                     "baristas", "waiter", "waiters", "nurse", "nurses", "staffer", "staffers"], "person"),
    **dict.fromkeys(["kind", "kinds", "sort", "sorts", "type", "types", "model", "models", "brand", "brands",
                     "flavour", "flavours", "flavor", "flavors", "colour", "colours", "color", "colors", "variety",
                     "varieties", "style", "styles", "sku", "skus", "size", "sizes"], "variety"),
    **dict.fromkeys(["location", "locations", "branch", "branches", "store", "stores", "shop", "shops", "office",
                     "offices", "restaurant", "restaurants", "cafe", "cafes", "hotel", "hotels", "site", "sites",
                     "business", "businesses", "company", "companies", "clinic", "clinics", "gym", "gyms"], "place"),
}  # fmt: skip
"""Counts of people and things that are no stock ('1500 students', '3 buses', 'one model, the one for Civics',
'two kinds', '3 stores'): a quantity in that unit."""

PER_UNIT_WORDS = frozenset(["one", "thing", "product", "customer", "sale", "sales", "part", "apiece"])
PER_ORDER_WORDS: dict[str, str] = {
    "order": "order", "orders": "order", "po": "order", "batch": "order", "replenishment": "order",
    "delivery": "delivery", "deliveries": "delivery", "shipment": "delivery", "shipments": "delivery",
    "drop": "delivery", "time": "order", "trip": "delivery", "trips": "delivery", "run": "delivery",
    "load": "delivery", "go": "order", "truck": "delivery", "trucks": "delivery", "truckload": "delivery",
}  # fmt: skip

SCALE_WORDS: dict[str, float] = {"k": 1000, "thousand": 1000, "grand": 1000, "hundred": 100, "million": 1e6,
                                 "dozen": 12}  # fmt: skip
"""A scale right after digits: '2k', '5 grand', '22 hundred', '8 dozen'."""

ROLE_WORDS: dict[str, str] = {
    **dict.fromkeys(["cost", "costs", "costing", "buy", "bought", "buying", "purchase", "wholesale", "paying"],
                    "purchase_price"),
    **dict.fromkeys(["sell", "sells", "sold", "selling", "retail", "retails", "charge", "charges", "goes", "go",
                     "going", "went"], "sale_price"),
    **dict.fromkeys(["lose", "loses", "lost", "losing", "loss", "miss", "misses", "missed"], "loss"),
    **dict.fromkeys(["penalty", "stockout", "shortage", "backorder"], "penalty"),
    **dict.fromkeys(["fee", "fees", "shipping", "ordering", "postage", "freight", "carriage", "setup"], "fee"),
    **dict.fromkeys(["holding", "storage", "store", "storing", "keep", "keeping"], "holding"),
    **dict.fromkeys(["rent", "lease", "mortgage"], "rent"),
    **dict.fromkeys(["wage", "wages", "salary", "salaries", "payroll", "staff", "employee", "employees", "worker",
                     "workers", "assistant", "assistants", "helper", "helpers", "girls", "lads", "guys", "crew",
                     "cleaner", "cleaners", "apprentice", "apprentices", "team"], "wages"),
    **dict.fromkeys(["electricity", "utilities", "power", "heating", "insurance", "bills"], "utilities"),
    **dict.fromkeys(["margin", "profit", "markup", "make", "earn"], "margin"),
    **dict.fromkeys(["price", "priced", "pay", "paid", "pays", "spend", "spent", "worth", "budget"], "price"),
}  # fmt: skip
"""Words before a value (or a role noun right after it: '2000 a month rent') that make it money and say which
money it is; the most specific cue wins (rent over pay, loss over sell)."""
NEEDS_FOR = frozenset(["sell", "sells", "sold", "selling", "buy", "bought", "buying", "purchase", "make", "earn",
                       "keep", "keeping", "store", "storing", "retail", "retails", "wholesale", "goes", "go",
                       "going", "went"])  # fmt: skip
"""Cues that make a bare number money only with 'for' / 'at' before it ('sell it for 11'; 'sell 20 a day' is a
count); with a currency sign they give the role anyway."""
DURATION_ROLE_WORDS: dict[str, str] = {
    **dict.fromkeys(["last", "lasts", "fridge", "fresh", "spoil", "spoils", "expire", "expires", "shelf", "off",
                     "stale", "perish", "perishes", "keeps", "rot", "rots", "expiry", "expiration", "cooler", "vase"],
                    "shelf_life"),
    **dict.fromkeys(["takes", "take", "arrive", "arrives", "delivery", "deliver", "delivers", "lead", "ship",
                     "ships", "shipping", "comes", "come", "wait", "supplier", "turnaround", "get"], "lead_time"),
}  # fmt: skip
"""Words near a duration that say what it is: how long stock keeps, or how long an order takes (the nearest
word wins; 'every 2 weeks' is an interval)."""
CUSTOMER_WAIT_VERBS = frozenset(["wait", "waits", "waited", "waiting", "hang", "hangs"])
"""Verbs of a person waiting for an item ('the contractors wait a day or two', 'customers hang on a week')."""
WAITING_PEOPLE = frozenset(["customer", "customers", "client", "clients", "contractor", "contractors", "people",
                            "they", "shopper", "shoppers", "buyer", "buyers", "folks", "folk", "guests", "patients",
                            "regulars", "punters", "members", "everyone", "most", "cyclists", "diners", "users"])  # fmt: skip
"""Subjects right before a wait verb that make the span a customer's wait (how long a backorder lasts), never
the supplier's lead time."""
DELIVERY_WORDS = frozenset(
    [w for w, role in DURATION_ROLE_WORDS.items() if role == "lead_time"]
    + ["order", "orders", "ordered", "ordering", "reorder", "restock", "delivered", "deliveries", "shipment",
       "shipped", "wholesaler", "distributor", "courier", "supply", "supplied", "here", "arrival", "arrives",
       "lead-time", "truck", "lorry", "van", "post", "mail", "dispatch", "dispatched", "bakery", "farm",
       "brewery", "factory", "warehouse", "vendor", "suppliers"]
)  # fmt: skip
"""Words of ordering and delivery: a span read as a lead time out of turn needs one ('the author event is in 3
weeks' answering demand names none and is never a lead time)."""
SPOIL_WORDS = frozenset(
    [w for w, role in DURATION_ROLE_WORDS.items() if role == "shelf_life"]
    + ["keep", "perishable", "perishes", "perishing", "spoiling", "spoilage", "rotting", "expiring", "spoiled",
       "spoilt", "rotten", "mouldy", "moldy", "expired", "expiry", "stale", "wilt", "wilts", "melt", "melts",
       "forever", "ages", "frozen", "fresh"]
)  # fmt: skip
"""Words about keeping or spoiling: a clause of one or two words ('nothing perishes', 'compost keeps') states a
fact about spoiling only with one of them ('goes', 'basically nothing' state none)."""
WHOLE_BUSINESS_ROLES = frozenset(["rent", "wages", "utilities"])
WHOLE_BUSINESS_WORDS = frozenset(
    ["total", "altogether", "overall", "shop", "store", "business", "everything"]
)
"""Money said for the whole business ('in total', 'for the shop'): no per-unit cost."""
PREMISES_WORDS = frozenset(["building", "buildings", "yard", "warehouse", "premises", "lights", "lighting",
                            "overhead", "overheads", "runs", "whole", "pitch", "stall", "licence", "license",
                            "permit", "parking", "insurance"])  # fmt: skip
STAFF_WORDS = frozenset(["technician", "technicians", "helper", "helpers", "assistant", "assistants", "employee",
                         "employees", "worker", "workers", "driver", "drivers", "mechanic", "mechanics", "apprentice",
                         "cleaner", "cleaners", "barista", "baristas", "cashier", "cashiers", "staffer", "nurse",
                         "nurses", "chef", "stylist", "stylists", "barber", "barbers", "hairdresser", "hairdressers"])  # fmt: skip
"""People paid by the business ('my technician costs me 3000 a month'): an amount per period beside them is
wages of the whole business, never a cost per unit."""
"""Words of the business's running costs and premises ('the yard costs me 1500 a month', 'the warehouse runs me
2200 a month'): an amount per period beside them is the whole business's, never a cost per unit."""

HEDGE_BEFORE = frozenset(["about", "around", "roughly", "approximately", "approx", "maybe", "perhaps", "~",
                          "probably", "something like", "ballpark", "guess", "possibly",
                          "more or less", "somewhere around", "nearly", "almost", "estimated"])  # fmt: skip
HEDGE_AFTER = frozenset(["or so", "ish", "give or take", "more or less", "maybe", "i think", "i guess",
                         "probably", "?", "or something"])  # fmt: skip
HEDGE_CLAUSE = frozenset(["maybe", "perhaps", "probably", "not sure", "i guess", "i think", "i suppose",
                          "dunno", "possibly"])  # fmt: skip
"""Hedges: before a value, right after it, or anywhere in its clause ('like' and 'say' only right before it:
'like 20', 'say 30'; not "I'd like Everett at 7:50")."""

HYPOTHETICAL_CUES = frozenset(
    ["if", "suppose", "supposing", "imagine", "hypothetically", "assuming", "unless"]
)
"""'if it were 10': a value that is not the speaker's."""
OTHERS_VERBS = frozenset(["thinks", "think", "says", "say", "said", "reckons", "reckon", "claims", "claim",
                          "believes", "believe", "told", "suggests", "suggested",
                          "insists", "figures", "estimates", "recommends"])  # fmt: skip
OTHERS_SUBJECTS = frozenset(["partner", "wife", "husband", "boss", "manager", "supplier", "accountant", "he",
                             "she", "they", "friend", "brother", "sister", "mom", "mum", "dad", "colleague",
                             "owner", "catalogue", "catalog", "website", "internet", "label", "book", "books",
                             "spreadsheet", "system", "invoice", "sheet", "parents", "principal", "teacher",
                             "teachers", "board", "district", "coworker", "team", "neighbour", "neighbor",
                             "distributor", "vendor", "rep", "list", "pricelist", "brochure", "leaflet",
                             "flyer", "quote", "contract", "manual", "app", "paperwork", "wholesaler", "baker",
                             "brewery", "dairy", "farm"])  # fmt: skip
"""'my partner thinks 10', 'the catalogue says 30': someone else's value ('the parents want 8:40' is a request
passed on, not another speaker's value: no 'want' here)."""

CORRECTION_CUES = frozenset(["sorry", "no", "nope", "wait", "oops", "whoops", "mean", "meant", "rather",
                             "actually", "correction", "scratch", "mistake", "typo", "bad", "make", "misspoke",
                             "instead", "not"])  # fmt: skip
CORRECTION_FILLERS = CORRECTION_CUES | frozenset(
    ["i", "or", "that", "it", "it's", "its", "is", "er", "erm", "um", "uh", "hmm", "let", "me", "correct", "my",
     "oh", "make", "hang", "on", "ah", "more", "like", "be", "should", "ok", "okay", "so", "well", "really", "the",
     "i'd", "say", "then", "would", "it'll", "was", "just", "only"]
)  # fmt: skip
"""Between X and Y, only these words and at least one cue: 'X, wait no, Y' -> X corrected."""
HESITATIONS = frozenset(["well", "hmm", "um", "er", "erm", "uh"])
SECOND_THOUGHTS = frozenset(["maybe", "perhaps", "probably"])
"""'X, well, maybe Y': a pause, a hesitation and a hedge before Y take X back (`mentions._second_thought`)."""
REALLY_CUES = ("really", "actually", "in reality", "in practice", "more like", "honestly", "truth", "realistically",
               "in fact", "closer to", "it's", "its", "now", "realy", "actualy")  # fmt: skip
"""'the catalogue says X but really Y': after 'but', these make Y the value meant."""
RESTATE_CUES = ("call it", ", say", "call that", "make it", "make that", "let's say", "lets say", "let us say", "round it to",
                "round it up to", "round it down to", "round up to", "round that to", "more like", "closer to")  # fmt: skip
"""'7 lost, plus they don't come back - call it 8': right before Y after a pause, these restate X as Y."""
VARIATION_LINKS = frozenset(["sometimes", "occasionally", "often", "usually", "normally", "maybe", "or", "up", "to",
                             "at", "most", "times", "other", "even", "and", "but", "though"])  # fmt: skip
"""'a week, sometimes 10 days, call it 8': words that join figures of one kind as a range or a variation; a
figure restated ('call it 8') settles every figure so joined before it."""
TOO_WORDS = frozenset(["much", "high", "low", "little", "many", "few", "big", "small", "steep", "expensive", "cheap",
                       "generous", "optimistic", "pessimistic"])  # fmt: skip
"""'6 a month... no, that's too much, say 3': 'too' and one of these judge X, and Y after a pause replaces it."""

MONTHS: dict[str, int] = {
    **{m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august",
                                        "september", "october", "november", "december"])},
    **{m: i + 1 for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                        "nov", "dec"])},
    "sept": 9,
}  # fmt: skip
WEEKDAYS = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
DATE_WORDS: dict[str, str] = {
    "today": "today",
    "tomorrow": "tomorrow",
    "yesterday": "yesterday",
    "tonight": "today",
}

ENTITY_HEADS = frozenset(["high", "middle", "elementary", "school", "academy", "primary", "prep", "college",
                          "secondary", "intermediate", "junior", "magnet", "charter"])  # fmt: skip
"""The last word of a capitalised name that makes it an entity ('Roosevelt High', 'Oak Elementary')."""

ACCEPT_WORDS = frozenset(["good", "good thanks", "good thank", "great", "great thanks", "perfect", "that works",
                          "works", "works for", "that's fine", "fine", "fine thanks", "sounds good", "looks good",
                          "lovely", "excellent", "thanks", "thank you", "thank", "cheers", "awesome", "nice",
                          "sounds great", "that's good", "that's great", "that's perfect", "all good", "deal",
                          "ok thanks", "okay thanks", "works for me", "that is fine", "love it"])  # fmt: skip
"""How a reply accepts ('Good, thanks', 'perfect', 'that works'): an ANSWER 'yes' with role 'accept'."""
