package headless

import (
	"strings"

	"github.com/reasonix/reasonix-desktop/internal/foundation/textwidth"
)

// columnGap is the spaces between two columns.
const columnGap = 2

// Columns lays rows of terminal-safe cells out in columns, each as wide as
// its widest cell plus a gap, the last cell of a row unpadded; tabs and
// newlines in a cell become spaces. Cells are measured in terminal cells
// (textwidth, UAX #11), not bytes or runes: text/tabwriter counts a Chinese
// character as one column, so every column after a Chinese title or a
// translated header shifted by the number of its characters. The CLI's
// tables (cmd) and the headless front end's use it.
func Columns(rows [][]string) string {
	flat := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	cells := make([][]string, len(rows))
	var widths []int
	for i, r := range rows {
		cells[i] = make([]string, len(r))
		for j, c := range r {
			c = flat.Replace(c)
			cells[i][j] = c
			if j == len(r)-1 {
				continue // the last cell is not padded: it sets no width
			}
			for len(widths) <= j {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], textwidth.Width(c))
		}
	}
	var b strings.Builder
	for _, r := range cells {
		for j, c := range r {
			if j == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(textwidth.Pad(c, widths[j]+columnGap))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
