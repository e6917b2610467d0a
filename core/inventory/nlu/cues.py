"""Which parameter a clause talks about: keyword cues per table row, in priority order."""

from __future__ import annotations

import re

_CUES: dict[str, str] = {
    "penalty_cost": r"penalt\w*|stock-?outs?|shortages?|lost sales? cost|cost\w* of (?:a |each )?lost|per lost|each lost|"
    r"unmet|unfilled|unfulfilled|unserved|missed (?:sales?|demand|orders?)|backorder\w* cost|backlog\w* cost|"
    r"run out|running out|goodwill|turn(?:ed)? away|short(?:age)? cost|cost\w* us .* (?:lost|missed|unmet)",
    "holding_cost": r"holding|carrying|hold(?:ing)? cost|storage (?:cost|fee|charge)s?|storing|warehousing (?:cost|fee)s?|"
    r"to (?:store|hold|keep)\b|inventory cost|keeping (?:a |an |each )?(?:unit|item)",
    "setup_cost": r"set-?up|ordering cost|order(?:ing)? fee|fixed (?:cost|fee|charge)|delivery (?:fee|charge|cost)|"
    r"shipping (?:fee|charge|cost)|per (?:order|shipment|delivery|batch)|each (?:order|shipment|delivery) costs?|"
    r"cost\w* (?:us )?.{0,20}to (?:place|make) an order|every time we order|whenever we order",
    "lead_time": r"lead[- ]?times?|deliver\w* (?:overnight|next[- ]day|the (?:next|same) day|same[- ]day)|delivery (?:delay|time)|deliver\w* (?:in|within|after)|takes? .{0,30}(?:arrive|deliver|come in|get here|show up)|"
    r"arriv\w*|replenish\w* (?:time|delay)|turnaround|delay|supplier (?:takes|needs)|to get (?:here|to us)|"
    r"(?:wait|waiting) .{0,15}(?:for|on) (?:the |our |a |each )?(?:order|deliver|shipment|suppl)",
    "max_order": r"max(?:imum)? order|(?:largest|biggest) (?:single )?order|order (?:size|quantity|limit|cap)|per-order cap|per order cap|"
    r"order (?:at most|up to|no more than)|orders? (?:can|may|must) .{0,40}(?:no more than|at most|up to|maximum|max|limit)|"
    r"(?:no more than|at most|up to|maximum of|max of|cap of) \S+ (?:units? )?(?:per|in one|in a single|each) (?:order|shipment|batch|delivery)|"
    r"batch(?:es)? (?:of )?(?:at most|up to|no more than)|supplier (?:caps|limits|won't ship|will not ship|ships at most|only ships)|"
    r"increments of|single order|one order|(?:per|each) (?:order|shipment|batch) (?:is )?(?:capped|limited)",
    "max_inventory": r"max(?:imum)? inventory|capacity|warehouse|storage|shelf space|shelves|room for|space for|"
    r"(?:store|hold|keep|fit|stock) (?:up to|at most|no more than|a maximum of|max)|on hand at (?:any|one) time|"
    r"at any (?:given )?time|inventory (?:limit|cap)|can(?:not|'t)? (?:store|hold|fit) more than",
    "time_horizon": r"horizon|plan\w* (?:for|over|period|window|ahead)|(?:the )?next \S+ (?:days|weeks|months|quarter)|"
    r"over (?:the )?(?:next )?\S+ (?:days|weeks|months)|time ?frame|season|period of|for a (?:quarter|year|month)|"
    r"optimi[sz]\w* (?:for|over)|simulat\w*|run (?:it )?for|look ahead",
    "risk_tolerance": r"risk|averse|aversion|conservative|cautious|aggressive|gambl\w*|on (?:that|the|this) scale|"
    r"scale from|rate (?:us|ourselves|myself|our)",
    "demand": r"demand|sell|sales|sold|customers? (?:buy|want|need|order|ask)|"
    r"poisson|normal(?:ly)?|gaussian|uniform(?:ly)?|λ|lambda|go through|orders? come in|"
    r"give or take|plus or minus|±|standard deviation|std|deviation|deterministic|random|unpredictable|fluctuat\w*",
    "demand_weak": r"units? (?:a|per) (?:day|week|month)|daily|weekly|\bmove\b|varies|vary",
}
_CUE_RES = {key: re.compile(rf"(?:{pattern})", re.IGNORECASE) for key, pattern in _CUES.items()}

PRIORITY: tuple[str, ...] = tuple(_CUES)

LOST_RE = re.compile(
    r"lost[-_ ]?sales?|los(?:e|ing) (?:the|that) (?:sale|customer)|sale is (?:just )?lost|"
    r"(?:customers?|they|people|buyers|shoppers|folks) (?:will |would |just |simply |usually |typically |often |then )*"
    r"(?:leave|walk (?:away|out|off)|go (?:elsewhere|somewhere else|to (?:a |the )?competitors?)|buy (?:it )?elsewhere|shop elsewhere|"
    r"don't wait|do not wait|won't wait|will not wait|never wait|go away|take their business)|"
    r"leave without|lost for good|gone for good|we lose (?:it|them|the sale)|no backorders?|not backlogged",
    re.IGNORECASE,
)
BACKLOG_RE = re.compile(
    r"backlog\w*|back-?orders?\w*|back orders?|"
    r"(?:customers?|they|people|buyers|folks) (?:will |would |just |simply |usually |typically |are (?:happy|willing) to |don't mind to |can )*"
    r"(?:wait|come back|return later|pre-?order)|willing to wait|happy to wait|wait for (?:it|the|their|restock)|"
    r"fill (?:it|them|the order) later|deliver (?:it|them) later|ship (?:it|them) later|rain ?check|"
    r"(?:don't|do not|never|won't) (?:leave|walk away|lose)",
    re.IGNORECASE,
)
PERISH_NO_RE = re.compile(
    r"non-?perishable|not perishable|(?:doesn't|does not|don't|do not|won't|will not|never|can't|cannot|nothing)\s+"
    r"(?:ever\s+|really\s+)?(?:spoil|perish|expire|go bad|goes bad|rot|go stale|degrade)|no (?:expiration|expiry|spoilage|shelf[- ]life)|"
    r"shelf[- ]stable|lasts? (?:forever|for years|indefinitely)|keeps? (?:forever|indefinitely|for years)|never expires?",
    re.IGNORECASE,
)
PERISH_YES_RE = re.compile(
    r"perish\w*|spoil\w*|expir\w*|go(?:es)? bad|rots?\b|stale|shelf[- ]life|fresh|use[- ]by|sell[- ]by|discard\w*|thrown? (?:out|away)",
    re.IGNORECASE,
)
CORRECTION_RE = re.compile(
    r"\bactually\b|\bcorrection\b|\bsorry\b|\bi meant\b|\bmake (?:that|it)\b|\bchange (?:that|it|the)\b|\binstead\b|"
    r"\bupdate (?:that|it|the)\b|\bscratch that\b|\bmy (?:bad|mistake)\b|\bi misspoke\b|\bon second thought\b|"
    r"\blet me correct\b|\bnot \S+,? but\b|\bwait,|^\s*no,",
    re.IGNORECASE,
)


_COST_WORD_RE = re.compile(r"cost|fee|charge|penalt|price|pay|\$|€|£|dollar|cent|usd|eur", re.IGNORECASE)


def topics(clause: str) -> list[str]:
    """The table rows (or 'demand') whose cues occur in `clause`, highest priority first; cost rows only
    when the clause mentions money."""
    found = [key for key in PRIORITY if _CUE_RES[key].search(clause)]
    fitting = [k for k in found if not k.endswith("_cost") or _COST_WORD_RE.search(clause)]
    return fitting or found
