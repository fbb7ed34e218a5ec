package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// demoPassword is the password of every demo account.
const demoPassword = "burraco-demo"

const demoClub = "Circolo Burraco Demo"

// demoTournament is the tournament of the demo club: an Italian pairs event
// at 4-player tables, a modified Danish of 4 rounds of 3 deals, a week from
// now, with its registration open and two pairs entered.
var demoTournament = domain.TournamentInput{
	Name:            "Torneo Demo a Coppie",
	Description:     "A demo tournament: FIBUR rules, pairs, 3 deals per round.",
	Rules:           "fibur",
	PlayersPerTable: new(4),
	Kind:            domain.PairsTournament,
	DealsPerRound:   new(3),
}

// demoTournamentLead is how long after the seeding the demo tournament
// starts.
const demoTournamentLead = 7 * 24 * time.Hour

// demoUsers are the demo accounts and their role in the demo club.
var demoUsers = []struct {
	email, name string
	role        domain.Role
}{
	{"owner@demo.burraco.local", "Olga Owner", domain.RoleOwner},
	{"admin@demo.burraco.local", "Aldo Admin", domain.RoleAdmin},
	{"referee@demo.burraco.local", "Rita Referee", domain.RoleReferee},
	{"anna@demo.burraco.local", "Anna Rossi", domain.RoleMember},
	{"marco@demo.burraco.local", "Marco Bianchi", domain.RoleMember},
	{"giulia@demo.burraco.local", "Giulia Verdi", domain.RoleMember},
}

// runSeedDemo fills the database with a demo club to click through: its
// owner, admin, referee and members, their player profiles, and a
// tournament with the referee assigned, its registration open and two
// pairs entered. It does nothing if the demo club
// exists already.
func runSeedDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("seed-demo", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", envOr("BURRACO_ADDR", ":8080"),
		"serve's listen address, or the server's URL, for the addresses printed to open next (env BURRACO_ADDR)")
	c.flags(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	log, err := newLogger(stderr, c.logLevel)
	if err != nil {
		fmt.Fprintln(stderr, "burraco seed-demo:", err)
		return 2
	}
	db, err := openDB(ctx, c.databaseURL, log)
	if err != nil {
		fmt.Fprintln(stderr, "burraco seed-demo:", err)
		return 1
	}
	defer db.Close()
	svc := domain.NewServices(db, domain.Config{Now: time.Now})
	if err := seedDemo(ctx, svc, time.Now, siteURL(c.addr), stdout, log); err != nil {
		fmt.Fprintln(stderr, "burraco seed-demo:", err)
		return 1
	}
	return 0
}

// seedDemo seeds through the services; now is the clock the demo
// tournament's start is counted from, site the server's URL that the
// printed addresses start with.
func seedDemo(ctx context.Context, svc domain.Services, now func() time.Time, site string, stdout io.Writer, log *slog.Logger) error {
	existing, err := svc.Clubs.List(ctx, domain.ClubFilter{Query: demoClub, Limit: 1})
	if err != nil {
		return err
	}
	if existing.Total > 0 {
		fmt.Fprintf(stdout, "The demo club %q exists already (id %d); nothing to do.\n", demoClub, existing.Items[0].ID)
		return nil
	}
	users := make([]domain.User, len(demoUsers))
	for i, d := range demoUsers {
		if users[i], err = svc.Auth.Register(ctx, domain.RegisterInput{Email: d.email, Password: demoPassword, Name: d.name}); err != nil {
			return fmt.Errorf("register %s: %w", d.email, err)
		}
	}
	owner := domain.Actor{UserID: users[0].ID}
	club, err := svc.Clubs.Create(ctx, owner, domain.ClubInput{Name: demoClub, City: "Roma", Description: "A demo club: log in as any of its members."})
	if err != nil {
		return fmt.Errorf("create club: %w", err)
	}
	for i, d := range demoUsers[1:] {
		if _, err := svc.Clubs.AddMember(ctx, owner, club.ID, users[i+1].ID, d.role); err != nil {
			return fmt.Errorf("add %s: %w", d.email, err)
		}
	}
	players, err := seedPlayers(ctx, svc.Players, club.ID, users)
	if err != nil {
		return err
	}
	admin := domain.Actor{UserID: users[1].ID}
	tournament, err := seedTournament(ctx, svc.Tournaments, admin, club.ID, users[2].ID, now())
	if err != nil {
		return err
	}
	if err := openDemoRegistration(ctx, svc.Play, admin, tournament.ID, players); err != nil {
		return err
	}
	log.Debug("demo seeded", "club_id", club.ID, "tournament_id", tournament.ID)
	printDemo(stdout, club, tournament, site)
	return nil
}

// seedTournament has the club's admin (the secretary) create the demo
// tournament, starting a week after now, and assign the club's referee to
// it.
func seedTournament(ctx context.Context, tournaments domain.TournamentService, admin domain.Actor, clubID, referee int64, now time.Time) (domain.Tournament, error) {
	in := demoTournament
	in.StartsAt = new(now.Add(demoTournamentLead))
	t, err := tournaments.Create(ctx, admin, clubID, in)
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("create tournament: %w", err)
	}
	if _, err := tournaments.AssignReferee(ctx, admin, t.ID, referee); err != nil {
		return domain.Tournament{}, fmt.Errorf("assign the referee: %w", err)
	}
	return t, nil
}

// openDemoRegistration has the admin open the tournament's registration
// and enter two pairs: Anna Rossi with Marco Bianchi, Giulia Verdi with the
// guest Guido Ospite (players holds the profiles in seedPlayers' order).
func openDemoRegistration(ctx context.Context, play domain.TournamentPlayService, admin domain.Actor, id int64, players []int64) error {
	cmds := []tourney.Command{
		tourney.OpenRegistration{},
		tourney.AddEntry{Players: []int64{players[3], players[4]}, Name: "Rossi – Bianchi", FeePaid: true},
		tourney.AddEntry{Players: []int64{players[5], players[6]}, Name: "Verdi – Ospite"},
	}
	for _, c := range cmds {
		if _, err := play.Act(ctx, admin, id, domain.TournamentCommand{Command: c}); err != nil {
			return fmt.Errorf("tournament %s: %w", c.CommandName(), err)
		}
	}
	return nil
}

// seedPlayers gives each demo user their own player profile in the club,
// and adds two guests without a login (as a club admin does for a live
// tournament). It returns the profiles' ids: the users' in order, then the
// guests'.
func seedPlayers(ctx context.Context, players domain.PlayerService, clubID int64, users []domain.User) ([]int64, error) {
	var ids []int64
	for _, u := range users {
		p, err := players.Create(ctx, domain.Actor{UserID: u.ID}, domain.PlayerInput{Name: u.Name, ClubID: &clubID, UserID: &u.ID})
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", u.Name, err)
		}
		ids = append(ids, p.ID)
	}
	admin := domain.Actor{UserID: users[1].ID}
	for i, name := range []string{"Guido Ospite", "Paola Ospite"} {
		fed := fmt.Sprintf("DEMO-%04d", i+1)
		p, err := players.Create(ctx, admin, domain.PlayerInput{Name: name, ClubID: &clubID, FederationID: &fed})
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", name, err)
		}
		ids = append(ids, p.ID)
	}
	return ids, nil
}

// siteURL is the URL a person on this machine opens to reach serve
// listening on addr (host:port, as -addr): a wildcard or missing host is
// localhost. An addr that is a URL already (a server behind a proxy) is
// kept.
func siteURL(addr string) string {
	if strings.HasPrefix(addr, "http://") || strings.HasPrefix(addr, "https://") {
		return strings.TrimRight(addr, "/")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://localhost:8080"
	}
	if ip, err := netip.ParseAddr(host); host == "" || (err == nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func printDemo(w io.Writer, club domain.Club, t domain.Tournament, site string) {
	fmt.Fprintf(w, "Seeded the demo club %q (id %d) with these accounts, all with password %q:\n", club.Name, club.ID, demoPassword)
	for _, d := range demoUsers {
		fmt.Fprintf(w, "  %-8s %-28s %s\n", d.role, d.email, d.name)
	}
	fmt.Fprintln(w, "and a player profile for each, plus two guest players without a login.")
	fmt.Fprintf(w, "Created the tournament %q (id %d, /api/v1/tournaments/%d), registration open with two pairs entered: %s, %d players per table, %s, %s of %d rounds of %d deals, starting %s; its referee is Rita Referee.\n",
		t.Name, t.ID, t.ID, t.Rules, t.PlayersPerTable, t.Kind, t.Movement, t.Rounds, t.DealsPerRound, t.StartsAt.Format(time.RFC3339))
	fmt.Fprintf(w, "Open next (with `burraco serve` running):\n")
	fmt.Fprintf(w, "  director's console  %s/app/console?t=%d  (sign in as %s)\n", site, t.ID, demoUsers[1].email)
	fmt.Fprintf(w, "  hall display        %s/app/hall/%d  (no sign-in)\n", site, t.ID)
	fmt.Fprintf(w, "  score pad           %s/app/pad\n", site)
}
