-- A queued sheet save names the rows its user removed (issue 12): the optimistic plan keeps them,
-- so rows added elsewhere after the save's base stay shown until it settles. NULL: a save queued
-- before saves named them, whose unlisted unfinished rows all go (as the server then did).
ALTER TABLE `performance_plans_local` ADD `pending_removes` text;
