// Command hello-surfaces is a UI plugin for Reasonix: once the host is ready
// it publishes a status, a card with two actions and a form; its actions
// refresh the card, ask a question, and ask one prompt of each kind; form
// submissions come back as a notification.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reasonix/reasonix-desktop/protocol"
	"github.com/reasonix/reasonix-desktop/sdk"
)

// Surface ids: publishing again with the same id replaces the surface.
const (
	statusID = "hello-status"
	cardID   = "hello-card"
	formID   = "hello-form"
	noticeID = "hello-notice"
	askID    = "hello-ask"
	kindsID  = "hello-kinds"
)

// cardMu makes "count, then publish the card" one step: the start-up
// publish runs beside actions, and without it a card counted before a
// refresh could reach the host after the refresh's card and stay on
// screen with the old count.
var (
	cardMu    sync.Mutex
	refreshes int64
)

// publishCard publishes the card with the counter after adding add to it.
func publishCard(ctx context.Context, host *sdk.Host, add int64) (int64, error) {
	cardMu.Lock()
	defer cardMu.Unlock()
	refreshes += add
	_, err := host.PublishCard(ctx, cardID, card(host, refreshes))
	return refreshes, err
}

func card(host *sdk.Host, refreshed int64) protocol.CardPayload {
	return protocol.CardPayload{
		Title: "Hello from a plugin",
		Markdown: "**hello-surfaces** renders as native widgets:\n\n" +
			"- status, card, form and notification surfaces\n" +
			"- confirm, input, select and multiselect prompts\n\n" +
			"See the [protocol](https://example.com/reasonix/extension-protocol).",
		Fields: []protocol.KeyValue{
			{Key: "refreshed", Value: strconv.FormatInt(refreshed, 10)},
			{Key: "ui host", Value: string(host.UIHost())},
		},
		Actions: []protocol.ActionRef{{ActionID: "refresh", Label: "Refresh"}, {ActionID: "ask", Label: "Ask me"}},
	}
}

var form = protocol.FormPayload{
	Title:   "Tell us about you",
	Message: "Submitted values come back as a notification.",
	Fields: []protocol.FormField{
		{Key: "name", Label: "Name", Kind: protocol.FieldInput, Required: true},
		{Key: "color", Label: "Favourite color", Kind: protocol.FieldSelect, Options: []string{"red", "green", "blue"}, Default: "green"},
		{Key: "tags", Label: "Interests", Kind: protocol.FieldMultiselect, Options: []string{"go", "desktop", "plugins"}},
		{Key: "agree", Label: "I like structured UI", Kind: protocol.FieldConfirm},
	},
}

func initialized(ctx context.Context, host *sdk.Host) {
	for _, progress := range []float64{0, 0.5, 1} {
		label := "hello-surfaces starting"
		if progress == 1 {
			label = "hello-surfaces ready"
		}
		if _, err := host.PublishStatus(ctx, statusID, protocol.StatusPayload{Label: label, Progress: &progress}); err != nil {
			log.Printf("status: %v", err)
		}
	}
	if _, err := publishCard(ctx, host, 0); err != nil {
		log.Printf("card: %v", err)
	}
	if _, err := host.PublishForm(ctx, formID, form); err != nil {
		log.Printf("form: %v", err)
	}
}

func refresh(ctx context.Context, a sdk.ActionContext) (string, error) {
	n, err := publishCard(ctx, a.Host, 1)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("refreshed %d times", n), nil
}

func ask(ctx context.Context, a sdk.ActionContext) (string, error) {
	ok, err := a.Host.RequestConfirm(ctx, askID, "Proceed?", "hello-surfaces would like to know whether to proceed.")
	answer := "no"
	switch {
	case errors.Is(err, sdk.ErrDismissed):
		answer = "dismissed"
	case err != nil:
		return "", err
	case ok:
		answer = "yes"
	}
	if _, err := a.Host.PublishNotification(ctx, noticeID, protocol.NotificationPayload{Title: "You answered: " + answer}); err != nil {
		return "", err
	}
	return "answered " + answer, nil
}

// prompts asks one prompt of each kind in turn, so a user (and a test)
// sees how the host shows each: a confirm, a select, a multiselect and an
// input; the form is the surface published at start. A dismissed prompt
// ends the round.
func prompts(ctx context.Context, a sdk.ActionContext) (string, error) {
	h := a.Host
	var answers []string
	stop := func(kind string, err error) (string, error) {
		if errors.Is(err, sdk.ErrDismissed) {
			return strings.Join(append(answers, kind+" dismissed"), ", "), nil
		}
		return "", err
	}
	ok, err := h.RequestConfirm(ctx, kindsID, "Try every prompt?", "hello-surfaces will ask a select, a multiselect and an input next.")
	if err != nil {
		return stop("confirm", err)
	}
	if !ok {
		return "confirm=no", nil
	}
	answers = append(answers, "confirm=yes")
	color, err := h.RequestSelect(ctx, kindsID, "A select", "Favourite color", []string{"red", "green", "blue"})
	if err != nil {
		return stop("select", err)
	}
	answers = append(answers, "select="+color)
	tags, err := h.RequestMultiSelect(ctx, kindsID, "A multiselect", "Interests", []string{"go", "desktop", "plugins"})
	if err != nil {
		return stop("multiselect", err)
	}
	answers = append(answers, "multiselect="+strings.Join(tags, "+"))
	name, err := h.RequestInput(ctx, kindsID, "An input", "Your name", "")
	if err != nil {
		return stop("input", err)
	}
	answers = append(answers, "input="+name)
	summary := strings.Join(answers, ", ")
	if _, err := h.PublishNotification(ctx, noticeID, protocol.NotificationPayload{
		Title: "Every prompt answered", Body: summary + " (the form \"" + form.Title + "\" is the last kind)"}); err != nil {
		return "", err
	}
	return summary, nil
}

func submit(ctx context.Context, s sdk.Submission) error {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s.Values)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, s.Values[k]))
	}
	_, err := s.Host.PublishNotification(ctx, noticeID, protocol.NotificationPayload{
		Title: "Form submitted", Body: strings.Join(parts, ", ")})
	return err
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	p := &sdk.Plugin{
		Name:    "hello-surfaces",
		Version: "0.1.0",
		Actions: []sdk.Action{
			{ID: "refresh", Label: "Refresh the card", Handler: refresh},
			{ID: "ask", Label: "Ask a question", Handler: ask},
			{ID: "prompts", Label: "Ask each kind of prompt", Handler: prompts},
		},
		OnInitialized: initialized,
		OnSubmit:      submit,
	}
	if err := sdk.Serve(ctx, p); err != nil {
		log.Fatal(err)
	}
}
