package i18n

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Int writes n with thousands separators (both languages group by three
// with a comma in software; 万-grouping is for prose).
func Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Date writes t for a list or a transcript, relative to now: the time
// alone today, month and day this year, the full date before.
func Date(t, now time.Time) string {
	t = t.In(now.Location())
	zh := Chinese()
	sameDay := t.Year() == now.Year() && t.YearDay() == now.YearDay()
	switch {
	case sameDay:
		return t.Format("15:04")
	case t.Year() == now.Year() && zh:
		return fmt.Sprintf("%d月%d日 %s", int(t.Month()), t.Day(), t.Format("15:04"))
	case t.Year() == now.Year():
		return t.Format("Jan 2 15:04")
	case zh:
		return fmt.Sprintf("%d年%d月%d日", t.Year(), int(t.Month()), t.Day())
	default:
		return t.Format("Jan 2, 2006")
	}
}

// DateTime writes t in full (a tooltip, an export): "2026-12-07 10:30" in
// both languages, the form both read without ambiguity.
func DateTime(t time.Time) string { return t.Format("2006-01-02 15:04") }

// currencySymbols are the symbols written before an amount.
var currencySymbols = map[string]string{"CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "JP¥"}

// Money writes an amount in its currency (an ISO 4217 code; "" is USD):
// "¥0.0123", "$1.50", "12.00 CHF". Amounts under 1 keep four decimals
// (a reply costs fractions of a cent); larger ones two.
func Money(amount float64, currency string) string {
	cur := strings.ToUpper(strings.TrimSpace(currency))
	if cur == "" {
		cur = "USD"
	}
	digits := 2
	if math.Abs(amount) < 1 {
		digits = 4
	}
	num := strconv.FormatFloat(amount, 'f', digits, 64)
	if sym, ok := currencySymbols[cur]; ok {
		if strings.HasPrefix(num, "-") {
			return "-" + sym + num[1:]
		}
		return sym + num
	}
	return num + " " + cur
}
