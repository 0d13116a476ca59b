-- A knowledge store as schema 3 wrote it (workbench at commit 5f0a318): dinner and
-- finesse imported, dinner's problem stored, dinner_minutes set to 75 and dinner's
-- methods reordered.  tests/test_kb_schema4.py builds the file from this text.
PRAGMA user_version = 3;
BEGIN TRANSACTION;
CREATE TABLE "constants" (
   "domain" TEXT REFERENCES "domains"("name"),
   "name" TEXT,
   "pos" INTEGER,
   "value" TEXT,
   "description" TEXT,
   "unit" TEXT, type TEXT,
   PRIMARY KEY ("domain", "name")
) STRICT;
INSERT INTO "constants" VALUES('finesse','likelihood_cutoff',0,'0.05','Opponent moves less likely than this are not planned for (Tignum 2: 0.05).','','number');
INSERT INTO "constants" VALUES('finesse','p_rise',1,'0.1','East holds the king and rises with it when a low card is led towards the A-Q.','','number');
INSERT INTO "constants" VALUES('finesse','p_king_west_after_duck',2,'0.5555555555555556','P(West holds the king | East played low): 0.5 / 0.9.','','number');
INSERT INTO "constants" VALUES('finesse','p_singleton_king',3,'0.04','The king is singleton and falls under the ace after East played low.','','number');
INSERT INTO "constants" VALUES('finesse','p_king_drops',4,'0.26','The king falls when the ace is cashed at once.','','number');
INSERT INTO "constants" VALUES('finesse','score_made',5,'620','Score when declarer takes both tricks (4 hearts, not vulnerable).','','number');
INSERT INTO "constants" VALUES('finesse','score_down',6,'-100','Score when declarer goes down one.','','number');
INSERT INTO "constants" VALUES('dinner','start_time',0,'1080','When the evening starts (18:00).','min','integer');
INSERT INTO "constants" VALUES('dinner','dinner_minutes',1,'75','How long dinner takes.','min','number');
CREATE TABLE "domains" (
   "name" TEXT PRIMARY KEY,
   "package" TEXT NOT NULL,
   "description" TEXT,
   "header" TEXT,
   "roots" TEXT,
   "extra" TEXT,
   "revision" INTEGER NOT NULL,
   "created" TEXT,
   "updated" TEXT
) STRICT;
INSERT INTO "domains" VALUES('dinner','examples','Go to dinner and a movie: the dissertation''s example of total-order backtracking.','# "Dinner and a movie" (Smith 1997, §3.1, Figure 3.2): a total-order forward planner
# commits to an ordering of GoToMovie and GoToDinner before it knows which works.  Dinner
# must be at the Mongolian Barbecue and the movie the 10:20 pm showing of Grosse Pointe
# Blank; you can''t go to dinner after a 10:20 pm show, so movie-then-dinner fails and the
# planner backtracks to dinner-then-movie.  Times are minutes after midnight.','["GoToDinnerAndMovie"]','{}',4,'2026-11-27T16:41:41+00:00','2026-11-27T16:41:41+00:00');
INSERT INTO "domains" VALUES('finesse','examples','Finesse or play for the drop: a decision tree with opponent nodes.','# A small two-agent game with chance-like opponent moves: declarer (South) needs two tricks
# from A-Q opposite small cards, missing the king.  Declarer may finesse (lead towards the
# A-Q; East may rise with the king or play low, then declarer chooses between the finesse
# and the ace) or cash the ace hoping the king drops.  The opponents'' moves are methods of
# uncontrolled agents, each with a probability (weight), an assumption and a critic.
# Making the contract scores +620, going down -100 (Smith 1997 uses bridge scores as leaf
# values too).','["Play"]','{}',2,'2026-11-27T16:41:41+00:00','2026-11-27T16:41:41+00:00');
CREATE TABLE "knowledge_tests" (
   "domain" TEXT REFERENCES "domains"("name"),
   "name" TEXT,
   "pos" INTEGER,
   "problem" TEXT,
   "description" TEXT,
   "options" TEXT,
   "expect" TEXT,
   "tolerance" REAL,
   PRIMARY KEY ("domain", "name")
) STRICT;
INSERT INTO "knowledge_tests" VALUES('finesse','finesse beats the drop',0,'finesse','Hand-computed expectimax: 0.1 x 620 + 0.9 x 220 = 260 against 87.2 for cashing the ace.','{}','{"value": 260.0, "chosen": {"South: play the suit": "Finesse"}}',0.005);
INSERT INTO "knowledge_tests" VALUES('dinner','dinner needs backtracking',0,'dinner','Movie first cannot work (no dinner after a 10:20 pm show); dinner first does.','{}','{"found": true, "chosen": {"Go to dinner and a movie": "DinnerThenMovie"}}',0.005);
CREATE TABLE method_subtasks (
        domain TEXT NOT NULL, task TEXT NOT NULL, method TEXT NOT NULL, pos INTEGER NOT NULL,
        call TEXT NOT NULL,
        PRIMARY KEY (domain, task, method, pos),
        FOREIGN KEY (domain, task, method) REFERENCES methods (domain, task, name)
            ON DELETE CASCADE
    ) STRICT;
INSERT INTO "method_subtasks" VALUES('finesse','Play','Finesse',0,'Lead(P)');
INSERT INTO "method_subtasks" VALUES('finesse','Play','Finesse',1,'Second("East")');
INSERT INTO "method_subtasks" VALUES('finesse','Play','Finesse',2,'Third(P)');
INSERT INTO "method_subtasks" VALUES('finesse','Play','CashAce',0,'Lead(P)');
INSERT INTO "method_subtasks" VALUES('finesse','Play','CashAce',1,'Drop("West")');
INSERT INTO "method_subtasks" VALUES('finesse','Third','PlayQueen',0,'PlayLow(P)');
INSERT INTO "method_subtasks" VALUES('finesse','Third','PlayQueen',1,'FinesseResult("West")');
INSERT INTO "method_subtasks" VALUES('finesse','Third','PlayAce',0,'PlayLow(P)');
INSERT INTO "method_subtasks" VALUES('finesse','Third','PlayAce',1,'AceResult("West")');
INSERT INTO "method_subtasks" VALUES('dinner','GoToDinnerAndMovie','DinnerThenMovie',0,'GoToDinner()');
INSERT INTO "method_subtasks" VALUES('dinner','GoToDinnerAndMovie','DinnerThenMovie',1,'GoToMovie()');
INSERT INTO "method_subtasks" VALUES('dinner','GoToDinnerAndMovie','MovieThenDinner',0,'GoToMovie()');
INSERT INTO "method_subtasks" VALUES('dinner','GoToDinnerAndMovie','MovieThenDinner',1,'GoToDinner()');
INSERT INTO "method_subtasks" VALUES('dinner','GoToMovie','SeeShowing',0,'BuyMovieTicket(M)');
INSERT INTO "method_subtasks" VALUES('dinner','GoToMovie','SeeShowing',1,'WatchMovie(M)');
INSERT INTO "method_subtasks" VALUES('dinner','GoToDinner','EatAt',0,'HaveDinner(R)');
CREATE TABLE "methods" (
   "domain" TEXT REFERENCES "domains"("name"),
   "task" TEXT,
   "name" TEXT,
   "pos" INTEGER,
   "label" TEXT,
   "description" TEXT,
   "bindings" TEXT,
   "precondition" TEXT,
   "operator" TEXT,
   "weight" TEXT,
   "assumption" TEXT,
   "critic" TEXT,
   "belief_view" TEXT,
   "decomposes" INTEGER,
   PRIMARY KEY ("domain", "task", "name")
) STRICT;
INSERT INTO "methods" VALUES('finesse','Play','Finesse',0,'Lead towards the A-Q','','[]','True',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('finesse','Play','CashAce',1,'Cash the ace at once','','[]','True',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('finesse','Second','Rise',2,'','','[]','True','RiseWithKing(P)','p_rise','East holds the king and rises with it','exact',NULL,0);
INSERT INTO "methods" VALUES('finesse','Second','Duck',3,'','','[]','True','PlayLow(P)','1 - p_rise','East plays low','same-operator',NULL,0);
INSERT INTO "methods" VALUES('finesse','Third','CashQueen',4,'Win with the queen','','[]','king_gone()','Win(P)',NULL,NULL,NULL,NULL,0);
INSERT INTO "methods" VALUES('finesse','Third','PlayQueen',5,'Finesse the queen','','[]','not king_gone()',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('finesse','Third','PlayAce',6,'Play the ace','','[]','not king_gone()',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('finesse','FinesseResult','KingWest',7,'','','[]','True','Lose(P)','p_king_west_after_duck','West holds the king','exact',NULL,0);
INSERT INTO "methods" VALUES('finesse','FinesseResult','KingEast',8,'','','[]','True','Win(P)','1 - p_king_west_after_duck','East holds the king','exact',NULL,0);
INSERT INTO "methods" VALUES('finesse','AceResult','SingletonFalls',9,'','','[]','True','Win(P)','p_singleton_king','the king was singleton','exact',NULL,0);
INSERT INTO "methods" VALUES('finesse','AceResult','KingGuarded',10,'','','[]','True','Lose(P)','1 - p_singleton_king','the king is guarded','exact',NULL,0);
INSERT INTO "methods" VALUES('finesse','Drop','KingFalls',11,'','','[]','True','Win(P)','p_king_drops','the king falls under the ace','exact',NULL,0);
INSERT INTO "methods" VALUES('finesse','Drop','KingStands',12,'','','[]','True','Lose(P)','1 - p_king_drops','the king stands','exact',NULL,0);
INSERT INTO "methods" VALUES('dinner','GoToDinnerAndMovie','DinnerThenMovie',0,'Dinner first, then the movie','','[]','True',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('dinner','GoToDinnerAndMovie','MovieThenDinner',1,'Movie first, then dinner','','[]','True',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('dinner','GoToMovie','SeeShowing',2,'','','["M in showings()"]','True',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO "methods" VALUES('dinner','GoToDinner','EatAt',3,'','','["R in restaurants()"]','True',NULL,NULL,NULL,NULL,NULL,1);
CREATE TABLE "operators" (
   "domain" TEXT REFERENCES "domains"("name"),
   "name" TEXT,
   "pos" INTEGER,
   "params" TEXT,
   "precondition" TEXT,
   "effect" TEXT,
   "costs" TEXT,
   "grp" TEXT,
   "description" TEXT,
   PRIMARY KEY ("domain", "name")
) STRICT;
INSERT INTO "operators" VALUES('finesse','Lead',0,'["P"]','True',NULL,'{}','','{P} leads a low card');
INSERT INTO "operators" VALUES('finesse','PlayLow',1,'["P"]','True',NULL,'{}','','{P} plays low');
INSERT INTO "operators" VALUES('finesse','RiseWithKing',2,'["P"]','True','king_played','{}','','{P} rises with the king');
INSERT INTO "operators" VALUES('finesse','Win',3,'["P"]','True','made','{}','','Declarer takes the second trick ({P} to play)');
INSERT INTO "operators" VALUES('finesse','Lose',4,'["P"]','True','down','{}','','The defence takes a trick ({P} to play)');
INSERT INTO "operators" VALUES('dinner','BuyMovieTicket',0,'["M"]','now() <= showtime(M)','buy_ticket','{"minutes": "10"}','','Buy a ticket for {M}');
INSERT INTO "operators" VALUES('dinner','WatchMovie',1,'["M"]','has_ticket(M) and now() <= showtime(M)','watch','{"minutes": "showtime(M) + runtime(M) - now()"}','','Watch {M}');
INSERT INTO "operators" VALUES('dinner','HaveDinner',2,'["R"]','now() <= last_seating(R)','dine','{"minutes": "dinner_minutes"}','','Have dinner at {R}');
CREATE TABLE "primitives" (
   "domain" TEXT REFERENCES "domains"("name"),
   "name" TEXT,
   "signature" TEXT,
   "doc" TEXT,
   "uses_state" INTEGER,
   PRIMARY KEY ("domain", "name")
) STRICT;
CREATE TABLE "problems" (
   "domain" TEXT REFERENCES "domains"("name"),
   "name" TEXT,
   "kind" TEXT,
   "content" TEXT,
   "description" TEXT,
   PRIMARY KEY ("domain", "name")
) STRICT;
INSERT INTO "problems" VALUES('dinner','dinner','builtin','','The evening of Figure 3.2.');
CREATE TABLE "revisions" (
   "id" INTEGER PRIMARY KEY,
   "domain" TEXT NOT NULL REFERENCES "domains"("name"),
   "author" TEXT,
   "created" TEXT,
   "action" TEXT NOT NULL,
   "kind" TEXT,
   "target" TEXT,
   "before" TEXT,
   "after" TEXT,
   "snapshot" TEXT NOT NULL,
   "parent" INTEGER,
   "reverts" INTEGER,
   "message" TEXT
) STRICT;
INSERT INTO "revisions" VALUES(1,'dinner','seed','2026-11-27T16:41:41+00:00','import','domain','dinner.toml','null','null','# "Dinner and a movie" (Smith 1997, §3.1, Figure 3.2): a total-order forward planner
# commits to an ordering of GoToMovie and GoToDinner before it knows which works.  Dinner
# must be at the Mongolian Barbecue and the movie the 10:20 pm showing of Grosse Pointe
# Blank; you can''t go to dinner after a 10:20 pm show, so movie-then-dinner fails and the
# planner backtracks to dinner-then-movie.  Times are minutes after midnight.

name = "dinner"
description = "Go to dinner and a movie: the dissertation''s example of total-order backtracking."
roots = [
    "GoToDinnerAndMovie",
]

[[constants]]
name = "start_time"
value = 1080
type = "integer"
description = "When the evening starts (18:00)."
unit = "min"

[[constants]]
name = "dinner_minutes"
value = 90
type = "number"
description = "How long dinner takes."
unit = "min"

[[tasks]]
name = "GoToDinnerAndMovie"
label = "Go to dinner and a movie"
description = "The goal: both dinner and the movie, in some order."

[[tasks]]
name = "GoToMovie"
label = "Go to the movie"
description = "Buy a ticket for the chosen showing, then watch it."

[[tasks]]
name = "GoToDinner"
label = "Go to dinner"
description = "Eat at the chosen restaurant."

[[methods]]
name = "MovieThenDinner"
task = "GoToDinnerAndMovie"
label = "Movie first, then dinner"
subtasks = [
    "GoToMovie()",
    "GoToDinner()",
]

[[methods]]
name = "DinnerThenMovie"
task = "GoToDinnerAndMovie"
label = "Dinner first, then the movie"
subtasks = [
    "GoToDinner()",
    "GoToMovie()",
]

[[methods]]
name = "SeeShowing"
task = "GoToMovie"
bindings = [
    "M in showings()",
]
subtasks = [
    "BuyMovieTicket(M)",
    "WatchMovie(M)",
]

[[methods]]
name = "EatAt"
task = "GoToDinner"
bindings = [
    "R in restaurants()",
]
subtasks = [
    "HaveDinner(R)",
]

[[operators]]
name = "BuyMovieTicket"
params = [
    "M",
]
precondition = "now() <= showtime(M)"
effect = "buy_ticket"
description = "Buy a ticket for {M}"

[operators.costs]
minutes = "10"

[[operators]]
name = "WatchMovie"
params = [
    "M",
]
precondition = "has_ticket(M) and now() <= showtime(M)"
effect = "watch"
description = "Watch {M}"

[operators.costs]
minutes = "showtime(M) + runtime(M) - now()"

[[operators]]
name = "HaveDinner"
params = [
    "R",
]
precondition = "now() <= last_seating(R)"
effect = "dine"
description = "Have dinner at {R}"

[operators.costs]
minutes = "dinner_minutes"

[[tests]]
name = "dinner needs backtracking"
problem = "dinner"
description = "Movie first cannot work (no dinner after a 10:20 pm show); dinner first does."

[tests.expect]
found = true

[tests.expect.chosen]
"Go to dinner and a movie" = "DinnerThenMovie"
',NULL,NULL,'bundled knowledge');
INSERT INTO "revisions" VALUES(2,'finesse','seed','2026-11-27T16:41:41+00:00','import','domain','finesse.toml','null','null','# A small two-agent game with chance-like opponent moves: declarer (South) needs two tricks
# from A-Q opposite small cards, missing the king.  Declarer may finesse (lead towards the
# A-Q; East may rise with the king or play low, then declarer chooses between the finesse
# and the ace) or cash the ace hoping the king drops.  The opponents'' moves are methods of
# uncontrolled agents, each with a probability (weight), an assumption and a critic.
# Making the contract scores +620, going down -100 (Smith 1997 uses bridge scores as leaf
# values too).

name = "finesse"
description = "Finesse or play for the drop: a decision tree with opponent nodes."
roots = [
    "Play",
]

[[constants]]
name = "likelihood_cutoff"
value = 0.05
type = "number"
description = "Opponent moves less likely than this are not planned for (Tignum 2: 0.05)."

[[constants]]
name = "p_rise"
value = 0.1
type = "number"
description = "East holds the king and rises with it when a low card is led towards the A-Q."

[[constants]]
name = "p_king_west_after_duck"
value = 0.5555555555555556
type = "number"
description = "P(West holds the king | East played low): 0.5 / 0.9."

[[constants]]
name = "p_singleton_king"
value = 0.04
type = "number"
description = "The king is singleton and falls under the ace after East played low."

[[constants]]
name = "p_king_drops"
value = 0.26
type = "number"
description = "The king falls when the ace is cashed at once."

[[constants]]
name = "score_made"
value = 620
type = "number"
description = "Score when declarer takes both tricks (4 hearts, not vulnerable)."

[[constants]]
name = "score_down"
value = -100
type = "number"
description = "Score when declarer goes down one."

[[tasks]]
name = "Play"
params = [
    "P",
]
agent = "P"
label = "{P}: play the suit"

[[tasks]]
name = "Second"
params = [
    "P",
]
agent = "P"
label = "{P}: second hand"

[[tasks]]
name = "Third"
params = [
    "P",
]
agent = "P"
label = "{P}: third hand"

[[tasks]]
name = "FinesseResult"
params = [
    "P",
]
agent = "P"
label = "{P}: fourth hand after the queen"

[[tasks]]
name = "AceResult"
params = [
    "P",
]
agent = "P"
label = "{P}: fourth hand after the ace"

[[tasks]]
name = "Drop"
params = [
    "P",
]
agent = "P"
label = "{P}: follows to the ace"

[[methods]]
name = "Finesse"
task = "Play"
label = "Lead towards the A-Q"
subtasks = [
    "Lead(P)",
    "Second(\"East\")",
    "Third(P)",
]

[[methods]]
name = "CashAce"
task = "Play"
label = "Cash the ace at once"
subtasks = [
    "Lead(P)",
    "Drop(\"West\")",
]

[[methods]]
name = "Rise"
task = "Second"
operator = "RiseWithKing(P)"
weight = "p_rise"
assumption = "East holds the king and rises with it"
critic = "exact"

[[methods]]
name = "Duck"
task = "Second"
operator = "PlayLow(P)"
weight = "1 - p_rise"
assumption = "East plays low"
critic = "same-operator"

[[methods]]
name = "CashQueen"
task = "Third"
label = "Win with the queen"
precondition = "king_gone()"
operator = "Win(P)"

[[methods]]
name = "PlayQueen"
task = "Third"
label = "Finesse the queen"
precondition = "not king_gone()"
subtasks = [
    "PlayLow(P)",
    "FinesseResult(\"West\")",
]

[[methods]]
name = "PlayAce"
task = "Third"
label = "Play the ace"
precondition = "not king_gone()"
subtasks = [
    "PlayLow(P)",
    "AceResult(\"West\")",
]

[[methods]]
name = "KingWest"
task = "FinesseResult"
operator = "Lose(P)"
weight = "p_king_west_after_duck"
assumption = "West holds the king"
critic = "exact"

[[methods]]
name = "KingEast"
task = "FinesseResult"
operator = "Win(P)"
weight = "1 - p_king_west_after_duck"
assumption = "East holds the king"
critic = "exact"

[[methods]]
name = "SingletonFalls"
task = "AceResult"
operator = "Win(P)"
weight = "p_singleton_king"
assumption = "the king was singleton"
critic = "exact"

[[methods]]
name = "KingGuarded"
task = "AceResult"
operator = "Lose(P)"
weight = "1 - p_singleton_king"
assumption = "the king is guarded"
critic = "exact"

[[methods]]
name = "KingFalls"
task = "Drop"
operator = "Win(P)"
weight = "p_king_drops"
assumption = "the king falls under the ace"
critic = "exact"

[[methods]]
name = "KingStands"
task = "Drop"
operator = "Lose(P)"
weight = "1 - p_king_drops"
assumption = "the king stands"
critic = "exact"

[[operators]]
name = "Lead"
params = [
    "P",
]
description = "{P} leads a low card"

[[operators]]
name = "PlayLow"
params = [
    "P",
]
description = "{P} plays low"

[[operators]]
name = "RiseWithKing"
params = [
    "P",
]
effect = "king_played"
description = "{P} rises with the king"

[[operators]]
name = "Win"
params = [
    "P",
]
effect = "made"
description = "Declarer takes the second trick ({P} to play)"

[[operators]]
name = "Lose"
params = [
    "P",
]
effect = "down"
description = "The defence takes a trick ({P} to play)"

[[tests]]
name = "finesse beats the drop"
problem = "finesse"
description = "Hand-computed expectimax: 0.1 x 620 + 0.9 x 220 = 260 against 87.2 for cashing the ace."

[tests.expect]
value = 260.0

[tests.expect.chosen]
"South: play the suit" = "Finesse"
',NULL,NULL,'bundled knowledge');
INSERT INTO "revisions" VALUES(3,'dinner','ann','2026-11-27T16:41:41+00:00','update','constant','dinner_minutes','{"name": "dinner_minutes", "value": 90, "type": "number", "description": "How long dinner takes.", "unit": "min"}','{"name": "dinner_minutes", "value": 75, "type": "number", "description": "How long dinner takes.", "unit": "min"}','# "Dinner and a movie" (Smith 1997, §3.1, Figure 3.2): a total-order forward planner
# commits to an ordering of GoToMovie and GoToDinner before it knows which works.  Dinner
# must be at the Mongolian Barbecue and the movie the 10:20 pm showing of Grosse Pointe
# Blank; you can''t go to dinner after a 10:20 pm show, so movie-then-dinner fails and the
# planner backtracks to dinner-then-movie.  Times are minutes after midnight.

name = "dinner"
description = "Go to dinner and a movie: the dissertation''s example of total-order backtracking."
roots = [
    "GoToDinnerAndMovie",
]

[[constants]]
name = "start_time"
value = 1080
type = "integer"
description = "When the evening starts (18:00)."
unit = "min"

[[constants]]
name = "dinner_minutes"
value = 75
type = "number"
description = "How long dinner takes."
unit = "min"

[[tasks]]
name = "GoToDinnerAndMovie"
label = "Go to dinner and a movie"
description = "The goal: both dinner and the movie, in some order."

[[tasks]]
name = "GoToMovie"
label = "Go to the movie"
description = "Buy a ticket for the chosen showing, then watch it."

[[tasks]]
name = "GoToDinner"
label = "Go to dinner"
description = "Eat at the chosen restaurant."

[[methods]]
name = "MovieThenDinner"
task = "GoToDinnerAndMovie"
label = "Movie first, then dinner"
subtasks = [
    "GoToMovie()",
    "GoToDinner()",
]

[[methods]]
name = "DinnerThenMovie"
task = "GoToDinnerAndMovie"
label = "Dinner first, then the movie"
subtasks = [
    "GoToDinner()",
    "GoToMovie()",
]

[[methods]]
name = "SeeShowing"
task = "GoToMovie"
bindings = [
    "M in showings()",
]
subtasks = [
    "BuyMovieTicket(M)",
    "WatchMovie(M)",
]

[[methods]]
name = "EatAt"
task = "GoToDinner"
bindings = [
    "R in restaurants()",
]
subtasks = [
    "HaveDinner(R)",
]

[[operators]]
name = "BuyMovieTicket"
params = [
    "M",
]
precondition = "now() <= showtime(M)"
effect = "buy_ticket"
description = "Buy a ticket for {M}"

[operators.costs]
minutes = "10"

[[operators]]
name = "WatchMovie"
params = [
    "M",
]
precondition = "has_ticket(M) and now() <= showtime(M)"
effect = "watch"
description = "Watch {M}"

[operators.costs]
minutes = "showtime(M) + runtime(M) - now()"

[[operators]]
name = "HaveDinner"
params = [
    "R",
]
precondition = "now() <= last_seating(R)"
effect = "dine"
description = "Have dinner at {R}"

[operators.costs]
minutes = "dinner_minutes"

[[tests]]
name = "dinner needs backtracking"
problem = "dinner"
description = "Movie first cannot work (no dinner after a 10:20 pm show); dinner first does."

[tests.expect]
found = true

[tests.expect.chosen]
"Go to dinner and a movie" = "DinnerThenMovie"
',1,NULL,'a quicker dinner');
INSERT INTO "revisions" VALUES(4,'dinner','ann','2026-11-27T16:41:41+00:00','reorder','task','GoToDinnerAndMovie','["MovieThenDinner", "DinnerThenMovie"]','["DinnerThenMovie", "MovieThenDinner"]','# "Dinner and a movie" (Smith 1997, §3.1, Figure 3.2): a total-order forward planner
# commits to an ordering of GoToMovie and GoToDinner before it knows which works.  Dinner
# must be at the Mongolian Barbecue and the movie the 10:20 pm showing of Grosse Pointe
# Blank; you can''t go to dinner after a 10:20 pm show, so movie-then-dinner fails and the
# planner backtracks to dinner-then-movie.  Times are minutes after midnight.

name = "dinner"
description = "Go to dinner and a movie: the dissertation''s example of total-order backtracking."
roots = [
    "GoToDinnerAndMovie",
]

[[constants]]
name = "start_time"
value = 1080
type = "integer"
description = "When the evening starts (18:00)."
unit = "min"

[[constants]]
name = "dinner_minutes"
value = 75
type = "number"
description = "How long dinner takes."
unit = "min"

[[tasks]]
name = "GoToDinnerAndMovie"
label = "Go to dinner and a movie"
description = "The goal: both dinner and the movie, in some order."

[[tasks]]
name = "GoToMovie"
label = "Go to the movie"
description = "Buy a ticket for the chosen showing, then watch it."

[[tasks]]
name = "GoToDinner"
label = "Go to dinner"
description = "Eat at the chosen restaurant."

[[methods]]
name = "DinnerThenMovie"
task = "GoToDinnerAndMovie"
label = "Dinner first, then the movie"
subtasks = [
    "GoToDinner()",
    "GoToMovie()",
]

[[methods]]
name = "MovieThenDinner"
task = "GoToDinnerAndMovie"
label = "Movie first, then dinner"
subtasks = [
    "GoToMovie()",
    "GoToDinner()",
]

[[methods]]
name = "SeeShowing"
task = "GoToMovie"
bindings = [
    "M in showings()",
]
subtasks = [
    "BuyMovieTicket(M)",
    "WatchMovie(M)",
]

[[methods]]
name = "EatAt"
task = "GoToDinner"
bindings = [
    "R in restaurants()",
]
subtasks = [
    "HaveDinner(R)",
]

[[operators]]
name = "BuyMovieTicket"
params = [
    "M",
]
precondition = "now() <= showtime(M)"
effect = "buy_ticket"
description = "Buy a ticket for {M}"

[operators.costs]
minutes = "10"

[[operators]]
name = "WatchMovie"
params = [
    "M",
]
precondition = "has_ticket(M) and now() <= showtime(M)"
effect = "watch"
description = "Watch {M}"

[operators.costs]
minutes = "showtime(M) + runtime(M) - now()"

[[operators]]
name = "HaveDinner"
params = [
    "R",
]
precondition = "now() <= last_seating(R)"
effect = "dine"
description = "Have dinner at {R}"

[operators.costs]
minutes = "dinner_minutes"

[[tests]]
name = "dinner needs backtracking"
problem = "dinner"
description = "Movie first cannot work (no dinner after a 10:20 pm show); dinner first does."

[tests.expect]
found = true

[tests.expect.chosen]
"Go to dinner and a movie" = "DinnerThenMovie"
',3,NULL,'');
CREATE TABLE "runs" (
   "id" INTEGER PRIMARY KEY,
   "domain" TEXT REFERENCES "domains"("name"),
   "problem" TEXT,
   "started" TEXT,
   "revision" INTEGER,
   "parameters" TEXT,
   "summary" TEXT,
   "trace" TEXT
) STRICT;
CREATE TABLE "tasks" (
   "domain" TEXT REFERENCES "domains"("name"),
   "name" TEXT,
   "pos" INTEGER,
   "params" TEXT,
   "agent" TEXT,
   "label" TEXT,
   "description" TEXT,
   "partial_plan_prune" INTEGER,
   PRIMARY KEY ("domain", "name")
) STRICT;
INSERT INTO "tasks" VALUES('finesse','Play',0,'["P"]','P','{P}: play the suit','',0);
INSERT INTO "tasks" VALUES('finesse','Second',1,'["P"]','P','{P}: second hand','',0);
INSERT INTO "tasks" VALUES('finesse','Third',2,'["P"]','P','{P}: third hand','',0);
INSERT INTO "tasks" VALUES('finesse','FinesseResult',3,'["P"]','P','{P}: fourth hand after the queen','',0);
INSERT INTO "tasks" VALUES('finesse','AceResult',4,'["P"]','P','{P}: fourth hand after the ace','',0);
INSERT INTO "tasks" VALUES('finesse','Drop',5,'["P"]','P','{P}: follows to the ace','',0);
INSERT INTO "tasks" VALUES('dinner','GoToDinnerAndMovie',0,'[]',NULL,'Go to dinner and a movie','The goal: both dinner and the movie, in some order.',0);
INSERT INTO "tasks" VALUES('dinner','GoToMovie',1,'[]',NULL,'Go to the movie','Buy a ticket for the chosen showing, then watch it.',0);
INSERT INTO "tasks" VALUES('dinner','GoToDinner',2,'[]',NULL,'Go to dinner','Eat at the chosen restaurant.',0);
CREATE INDEX "idx_revisions_domain_id"
    ON "revisions" ("domain", "id");
CREATE INDEX "idx_runs_domain_id"
    ON "runs" ("domain", "id");
COMMIT;
