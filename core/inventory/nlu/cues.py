"""Which parameter a clause talks about: keyword cues per table row, in priority order."""

from __future__ import annotations

import re

from core.text.numbers import find_numbers
from core.text.units import find_money

_CUES: dict[str, str] = {
    "penalty_cost": r"penalt\w*|stock-?outs?|shortages?|lost sales? cost|lost sales?\W{0,3}(?:is |are |at |= ?|: ?)?(?:about |around )?[$€£]?\d|cost\w* of (?:a |each )?lost|per lost|each lost|"
    r"unmet|unfilled|unfulfilled|unserved|miss(?:ed|ing) (?:sales?|demand|orders?|customers?)|(?:a|each|every) missing \w+|backorder\w* cost|backlog\w* cost|"
    r"run out|running out|goodwill|turn(?:ed)? away|short(?:age)? cost|cost\w* us .* (?:lost|missed|unmet)|"
    r"(?:a|every|each) (?:lost|missed) \w+|\bwait(?:s|ing)?\b|go(?:es)? without|can(?:'t|not) (?:serve|supply|fill|meet|get|find|buy)|"
    r"(?:every|each) time (?:we(?:'re| are)?|i'?m) (?:out|short)|(?:delay|wait(?:ing)?) costs?\b|"
    r"(?:los(?:e|ing)|miss(?:ing)?) (?:a|one|each|every) (?:sale|customer)\b|(?:sales?|customers?) (?:we|i) (?:miss|lose)\b|"
    r"cost\w* (?:us )?(?:of|for) (?:the )?(?:delay|wait)",
    "holding_cost": r"holding|carrying|hold(?:ing)? cost|storage\b|storing|warehousing (?:cost|fee)s?|"
    r"to (?:store|hold|keep)\b|inventory cost|keep(?:ing)? (?:a|an|one|1|each|every) \w+|on the shelf|"
    r"in the (?:fridge|cooler|freezer|back)",
    "setup_cost": r"set-?up|ordering cost|(?:fee|charge)s? (?:for|on|with) (?:each|every|an?|per) (?:order|purchase)\b|order(?:ing)? fee|order(?:ing|s)? (?:has|have|carries|carry|comes? with|incurs?) .{0,25}(?:fee|charge|cost)|fixed (?:cost|fee|charge)|delivery (?:fee|charge|cost)|"
    r"shipping|per (?:order|shipment|delivery|batch)|each (?:order|shipment|delivery) costs?|"
    r"cost\w* (?:us )?.{0,20}to (?:place|make) an order|every time we order|whenever we order|(?:each|every|per) time\b|"
    r"(?:orders?|deliver(?:y|ies)|shipments?) costs?\b|(?:deliver(?:y|ies)|shipments?|orders?) (?:has|have|carries|carry|comes? with|incurs?) .{0,25}(?:fee|charge|cost)|(?:each|every|per|one) (?:order|shipment|delivery|batch) (?:is|runs|comes to)\b|\bflat\b|deliver(?:y|ies) (?:is|are) (?:always )?free|free deliver(?:y|ies)|for (?:each |every |a )?(?:deliver(?:y|ies)|shipments?)",
    "max_order": r"max(?:imum)? order|(?:largest|biggest) (?:single )?order|order (?:size|quantity|limit|cap)|per-order cap|per order cap|"
    r"order (?:at most|up to|no more than)|orders? (?:can|may|must) .{0,40}(?:no more than|at most|up to|maximum|max|limit)|"
    r"(?:no more than|at most|up to|maximum of|max of|cap of) \S+ (?:\w+ )?(?:per|in one|in a single|each|at) (?:order|shipment|batch|delivery|once|a time)|"
    r"batch(?:es)? (?:of )?(?:at most|up to|no more than)|supplier (?:caps|limits|won't ship|will not ship|ships at most|only ships)|"
    r"increments of|single order|one order|(?:per|each) (?:order|shipment|batch) (?:is )?(?:capped|limited)|"
    r"orders? (?:are |is |get )?(?:capped|limited) (?:at|to)|caps? (?:\w+ )?(?:orders?|deliver\w*|shipments?) at|"
    r"(?:can't|cannot|can not|won't|will not|don't|do not) (?:\w+ ){0,2}(?:take|order|get|buy|sell|receive|accept|ship|deliver|send)"
    r"(?: us| me| orders?| units?)? (?:more than|above|over|bigger than|larger than|beyond)|more than \S+ (?:\w+ )?at (?:once|a time)|"
    r"(?:brings|delivers|ships|sends|carries) (?:at most|up to|no more than|max)|"
    r"(?:brings?|delivers?|ships?|sends?|carry|carries) (?:up to )?\d+ (?:\w+ )?(?:max|maximum|tops|at most)\b|"
    r"\d+ (?:\w+ )?(?:per|each|a|an) (?:order|delivery|shipment|batch) (?:max|maximum|tops|at most)\b",
    "lead_time": r"lead[- ]?times?|\blead\b|deliver\w* (?:overnight|next[- ]day|the (?:next|same) day|same[- ]day)|delivery (?:delay|time)|"
    r"deliver\w* (?:in|within|after)|takes? .{0,30}(?:arrive|deliver|come in|get here|show up)|"
    r"arriv\w*|replenish\w* (?:time|delay)|turnaround|delay|supplier (?:takes|needs)|to get (?:here|to us)|"
    r"(?:wait|waiting) .{0,15}(?:for|on) (?:the |our |a |each )?(?:order|deliver|shipment|suppl)|"
    r"(?:takes?|needs?) (?:about |around |roughly |only |just |usually )?\d+(?:\.\d+)? (?:business )?(?:days?|weeks?)|"
    r"takes? (?:us |them )?(?:about |around |roughly |only |just |usually )?(?:a|an|\d+(?:\.\d+)?) (?:business )?(?:days?|weeks?) "
    r"(?:to|for|before|until)\b|(?:deliver(?:y|ies)|shipments?|orders?|restocks?) (?:usually |normally |typically )?(?:take|need)s?\b|"
    r"\b\w{1,20}[- ](?:day|week) wait|(?:same|next)[- ]day (?:delivery|deliveries|shipping|service)|for deliver(?:y|ies)\b|"
    r"(?:shows? up|comes? in|gets? here|turns? up|lands?) .{0,10}\d+ (?:business )?(?:days?|weeks?)|"
    r"\d+ (?:business )?(?:days?|weeks?) after (?:we|i|you) (?:order|place)|"
    r"\b(?:bring|deliver|drop|ship)\w* (?:\w+ ){0,3}(?:the )?next (?:morning|day)\b|"
    r"\bdeliver(?:y|ies) (?:is|are|takes?) (?:about |around |roughly )?\d+(?:\.\d+)? (?:business )?(?:days?|weeks?)",
    "max_inventory": r"max(?:imum)? inventory|capacity|^\W*(?:storage |inventory )?cap\b:?\s*\d|warehouse|storage|shelf space|shelves|room for|space for|"
    r"(?:store|hold|keep|fit|stock) (?:up to|at most|no more than|a maximum of|max)|on hand at (?:any|one) time|"
    r"at any (?:given )?time|inventory (?:limit|cap)|can(?:not|'t)? (?:store|hold|fit) more than|"
    r"(?:can|could) (?:only )?(?:store|hold|keep|fit|stock) (?:up to |about |around |roughly |maybe |perhaps )?\d|"
    r"\b(?:we|i) (?:store|fit) (?:up to |about |around |roughly |only )?\d|"
    r"\b(?:holds|fits) (?:up to |about |around |roughly |only |at most )?\d|"
    r"(?:fridge|freezer|cooler|room|storeroom|case|stand|rack|bin|garage|cellar|basement) (?:only )?(?:can )?takes? \d|"
    r"\b(?:keep|carry|have|stock|hold|store|fit)s? (?:up to |about |around |roughly |maybe |perhaps |at most |only )?"
    r"\d+ (?:\w+ ){0,2}(?:in|on|at) (?:the |our |my )?(?:back|back ?room|stock ?room|store ?room|shelf|shelves|"
    r"warehouse|fridge|freezer|cooler|cellar|basement|garage|shop|store|premises)\b|"
    r"(?:never|don't|do not|can't|cannot|won't) (?:\w+ )?(?:keep|carry|have|stock|hold|store) (?:more than|over) \d|"
    r"\broom (?:in (?:the )?back )?for (?:up to |about |around |roughly |maybe )?\d",
    "time_horizon": r"horizon|plan\w* (?:for|over|period|window|ahead|on)|plan \d|(?:the )?next \S+ (?:days|weeks|months|quarter)|"
    r"over (?:the )?(?:next )?\S+ (?:days|weeks|months)|time ?frame|season|period of|for a (?:quarter|year|month)|"
    r"optimi[sz]\w* (?:for|over)|simulat\w*|run (?:it )?for|look ahead|"
    r"(?:for|over|during|through|across) (?:the )?(?:next|coming|following) (?:\S+ )?(?:days|weeks?|months?|quarters?|years?)\b|"
    r"\bthe next (?:quarter|year)\b|\blook(?:ing)? (?:\S+ )?(?:days|weeks|months|quarters?|years?) ahead|"
    r"(?:open|operating|running|trading)\b.{0,25}\bfor (?:the )?(?:next |coming )?\S+ (?:days|weeks|months|quarters?|years?)",
    "risk_tolerance": r"risk|averse|aversion|conservative|cautious|aggressive|gambl\w*|on (?:that|the|this) scale|"
    r"scale from|rate (?:us|ourselves|myself|our)|take chances|adventurous",
    "demand": r"demand|sell|sales|sold|customers? (?:buy|want|need|order|ask)|"
    r"poisson|normal(?:ly)?|gaussian|uniform(?:ly)?|λ|lambda|go through|orders? come in|"
    r"give or take|plus or minus|±|standard deviation|std|deviation|deterministic|random|unpredictable|fluctuat\w*",
    "demand_weak": r"units? (?:a|per) (?:day|week|month)|"
    r"\d+(?:\.\d+)? (?!days?\b|weeks?\b|months?\b|hours?\b|times?\b)(?:\w+ )?(?:a|per) (?:day|week|month)\b|/\s*day\b|daily|weekly|\bmove\b|varies|vary",
}
_CUE_RES = {key: re.compile(rf"(?:{pattern})", re.IGNORECASE) for key, pattern in _CUES.items()}

PRIORITY: tuple[str, ...] = tuple(_CUES)

_WHO = (
    r"(?:customers?|clients?|patients?|patrons?|guests?|riders?|shoppers?|buyers?|regulars?|diners?|people|folks|"
    r"they|someone|somebody|most|everyone)\b(?:(?!not\b|never\b|n't\b)[^.;!?\n,]){0,40}?"
)
_ELSEWHERE = r"(?:elsewhere|somewhere else|from (?:a |the )?competitors?)"
LOST_RE = re.compile(
    r"lost[-_ ]?sales?|los(?:e|ing) (?:the|that) (?:sale|customer)|(?:sales?|demand|orders?|customers?) (?:is |are )?"
    r"(?:just |simply )?(?:lost|gone)\b|sale'?s (?:just )?gone|"
    rf"{_WHO}\b(?:leaves?|walk (?:away|out|off)|walks (?:away|out|off)|go(?:es)? (?:elsewhere|somewhere else|"
    r"to (?:a |the )?competitors?|(?:over |down )?to (?:another|a different|some other|the other) \w+)|"
    rf"(?:buy|get|order|pick|choose)s? (?:it |one |them |something )?(?:else|{_ELSEWHERE})|shop {_ELSEWHERE}|"
    r"don't wait|do not wait|won't wait|will not wait|never wait|go away|take their business|"
    r"(?:buy|get|grab|pick up|find)s? (?:it|one|them) (?:at|from) (?:the|a|another|some|a different) \w+|"
    r"(?:go(?:es)?|head(?:s)?|run(?:s)?|pop(?:s)?|nip(?:s)?|walk(?:s)?|drive(?:s)?) (?:over |down |across |off |round )?"
    r"to (?:the |a |another |some )?[\w' ]{1,30}?(?:instead|down the (?:road|street)|across the (?:road|street)|"
    r"next door|round the corner|up the (?:road|street)|nearby)\b)|"
    r"leave without|lost for good|gone for good|we lose (?:it|them|the sale)|no backorders?|not backlogged|"
    r"(?:order|buy|get|pick|choose)s? something else",
    re.IGNORECASE,
)
BACKLOG_RE = re.compile(
    r"backlog\w*|back-?orders?\w*|back orders?|"
    rf"{_WHO}\b(?:wait(?:s|ing)?|come back|comes back|return later|pre-?orders?)\b|willing to wait|happy to wait|"
    r"wait for (?:it|the|their|restock)|wait (?:for us to|until we) (?:re)?(?:order|stock)|"
    r"pick (?:it|them|one) up later|reserve (?:it|one|them)|put (?:it|them|one) on (?:order|hold)|special[- ]order|"
    r"fill (?:it|them|the order) later|deliver (?:it|them) later|ship (?:it|them) later|rain ?check|"
    r"(?:don't|do not|never|won't) (?:leave|walk away|lose)",
    re.IGNORECASE,
)
PERISH_NO_RE = re.compile(
    r"non-?perishable|not perishable|(?:doesn't|does not|don't|do not|won't|will not|never|can't|cannot|nothing)\s+"
    r"(?:ever\s+|really\s+)?(?:spoil|perish|expire|go bad|goes bad|go off|goes off|rot|go stale|degrade)|"
    r"no (?:expiration|expiry|spoilage|shelf[- ]life|perish\w*)|shelf[- ]stable|never expires?|"
    r"(?:lasts?|keeps?)(?: for)? (?:forever|indefinitely|years|ages|months|a long time)",
    re.IGNORECASE,
)
PERISH_YES_RE = re.compile(
    r"perish\w*|spoil\w*|expir\w*|go(?:es)? bad|go(?:es)? off|rots?\b|stale|wilt\w*|shelf[- ]life|fresh|use[- ]by|"
    r"sell[- ]by|discard\w*|thrown? (?:out|away)|toss(?:ed|es)?\b|go(?:es)? (?:in|into) the (?:compost|trash|garbage|bin)|"
    r"(?:keeps?|lasts?|stays? good|good) (?:for )?(?:about |around |roughly |only |up to )?\d+(?:\.\d+)? (?:days?|weeks?)",
    re.IGNORECASE,
)
STATE_RE = re.compile(
    r"\b(?:current(?:ly)?|right now|at the moment|on hand|in stock|incoming|on order|outstanding|in transit)\b"
    r"|\bday\s+\d+\b|\binventory (?:is |of |at |level (?:is |of )?)?-?\d",
    re.IGNORECASE,
)
"""Talk about the current stock, today or open orders (an order question), not a table row."""

_COST_WORD_RE = re.compile(
    r"cost|fee|charge|penalt|price|pay|\$|€|£|dollar|cent|usd|eur|bucks?\b|free\b|\bbill", re.IGNORECASE
)
_COST_NAME_RE = re.compile(r"penalt|holding|carrying|set-?up|ordering|order fee|fixed|flat", re.IGNORECASE)
_RATE_CUES = {
    "penalty_cost": re.compile(
        r"\b(?:per|each|every|a)\s+(?:lost|missed|unmet|unfilled)\b|\blost sales?\s*(?:is|are|=|:)?\s*\d",
        re.I,
    ),
    "holding_cost": re.compile(r"\bper (?:unit|item|piece) per day\b", re.I),
}
"""A price stated as a rate ('5 per lost sale') is a cost even without a currency word ('10 per order' may
be a quantity, so it is not)."""


def _all_money(money: list, numbers: list) -> bool:
    """Whether every number lies inside one of the money spans (both lists in text order): one merge pass."""
    i = 0
    for n in numbers:
        while i < len(money) and money[i].end <= n.start:
            i += 1
        if i == len(money) or not money[i].start <= n.start:
            return False
    return True


def topics(clause: str) -> list[str]:
    """The table rows (or 'demand') whose cues occur in `clause`, highest priority first. A cost row needs
    money or its own name in the clause; a clause whose only numbers are money talks about a cost row."""
    found = [key for key in PRIORITY if _CUE_RES[key].search(clause)]
    money_words = bool(_COST_WORD_RE.search(clause))
    fitting = [k for k in found if not k.endswith("_cost") or money_words or _COST_NAME_RE.search(clause)]
    if not fitting and find_numbers(clause):
        fitting = [k for k in found if k in _RATE_CUES and _RATE_CUES[k].search(clause)][:1]
    money = find_money(clause)
    if money and _all_money(money, find_numbers(clause)):
        fitting = [k for k in fitting if k.endswith("_cost")]
    return fitting


_QUESTION_RE = re.compile(
    r"^\W*(?!(?:how|what) about\b(?!\s+(?:if|when)\b))(?:why|what|how|when|where|who|which|should|shouldn'?t|"
    r"could|can|would|is|isn'?t|are|aren'?t|do|does|don'?t|did|will|won'?t)\b.*\?\s*$"
    r"|^\W*(?:why|what if|how come|what happens (?:if|when)|(?:how|what) about (?:if|when))\b",
    re.I | re.S,
)
_CONFUSED_RE = re.compile(
    r"^\W*(?:huh|eh|pardon|come again|sorry|what)\W*$|\b(?:don'?t|do not|didn'?t) (?:really )?(?:understand|get it|follow)\b"
    r"|\bconfus(?:ed|ing)\b|\bwhat do you mean\b|\bmeaning of\b",
    re.I,
)
"""Confusion about the last question ('huh?', 'I don't understand'): answered like a question."""


def is_question(text: str) -> bool:
    """A question to the agent ('why should I order when I still have 5?'), not an answer: it starts with a
    question word and ends with '?', starts with 'why' / 'what if' / 'how about if', or says the user is
    confused ('huh?'). 'How about 5?' proposes a value."""
    text = text.strip()
    return bool(_QUESTION_RE.search(text) or _CONFUSED_RE.search(text))
