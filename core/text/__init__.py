"""The shared text toolkit of the offline agents: numbers, units and money, corrections, negation, questions,
clauses, short answers, entity matching, in-message contradictions and the intent classifier trained from
example banks; and the mention model (`mentions.parse`, words in `vocabulary.py`): one parse per message into
typed, scoped mentions that the chats' readers consume instead of re-scanning the text.

Both chat workbenches (inventory, school scheduling) read user messages through these modules; nothing
here knows about either workbench. Every pattern is linear in the message length.
"""
