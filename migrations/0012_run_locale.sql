-- 0012: a run records the locale its messages are in (issue 29). See docs/storage.md,
-- "Validation runs".
--
-- run_rules.message holds each failed rule's message as the run's types gave it, translated
-- by the message catalogs of the locale the run was made in (`--locale`, FORMULARY_LOCALE,
-- LC_ALL, LC_MESSAGES, LANG): `de`, `pt-BR`. NULL: the types' own texts (no locale, or `C`),
-- as every run before this migration. A run carries results forward only from a run of the
-- same locale, and a process joining a shared run judges in the run's locale.
ALTER TABLE runs ADD COLUMN locale TEXT;
