// The root page's search box and its script (see `SiteSearch` for the data it reads). The script shows what it
// finds with `textContent` only: a title or a note is never markup here, whatever it holds.
import Foundation

enum SiteSearchPage {
    /// The search's section of the root page, then the titles' script (allowed by the policy's `'self'`: a page
    /// opened as a file loads no script with an integrity value, which needs CORS).
    static let markup = """
        <section aria-labelledby="search-heading"><h2 id="search-heading">Search every episode</h2>
        <label for="search">Titles, show notes and transcripts</label><input id="search" type="search" autocomplete="off">
        <p id="search-status" class="muted" aria-live="polite"></p><ol id="results" class="results"></ol></section>
        <script src="\(ArchiveLayout.siteSearchIndex)"></script>
        """

    /// The search's script: each word of the query must be in an episode's title, notes or transcripts.
    static let script = """
        (() => {
          const box = document.getElementById("search");
          const status = document.getElementById("search-status");
          const list = document.getElementById("results");
          const served = location.protocol === "http:" || location.protocol === "https:";
          const fold = (text) => text.normalize("NFC").toLowerCase();
          const shows = (window.podarchiveTitles || []).map(([href, title, transcripts, episodes]) => {
            const show = { href, title, transcripts, byId: new Map() };
            show.episodes = episodes.map(([id, name, day]) => ({ id, name, day, lower: fold(name), notes: "", said: "" }));
            for (const episode of show.episodes) show.byId.set(episode.id, episode);
            return show;
          });
          const byHref = new Map(shows.map((show) => [show.href, show]));
          const take = (href, rows, field) => {
            const show = byHref.get(href);
            if (!show || !Array.isArray(rows)) return;
            for (const [id, words] of rows) {
              const episode = show.byId.get(id);
              if (episode && typeof words === "string") episode[field] = words;
            }
          };
          window.podarchiveNotes = (href, rows) => take(href, rows, "notes");
          let pending = 0;
          let started = false;
          const done = () => {
            pending -= 1;
            // When every show's notes and transcripts were read, counted from the page's start (for `make bench`).
            if (pending === 0) document.body.dataset.loadedMs = performance.now().toFixed(0);
            search();
          };
          const load = () => {
            if (started) return;
            started = true;
            for (const show of shows) {
              pending += 1;
              const script = document.createElement("script");
              script.src = show.href + "\(ArchiveLayout.siteSearchNotes)";
              script.onload = done;
              script.onerror = done;
              document.body.append(script);
              if (!served || !show.transcripts) continue;
              pending += 1;
              fetch(show.href + "\(ArchiveLayout.siteSearchTranscripts)")
                .then((answer) => (answer.ok ? answer.json() : []))
                .then((rows) => take(show.href, rows, "said"))
                .catch(() => {})
                .finally(done);
            }
          };
          const search = () => {
            const start = performance.now();
            const words = fold(box.value).split(/[^\\p{L}\\p{M}\\p{N}]+/u).filter(Boolean);
            list.replaceChildren();
            if (words.length === 0) {
              status.textContent = "";
              return;
            }
            load();
            let count = 0;
            const items = [];
            for (const show of shows) {
              for (const episode of show.episodes) {
                const fields = [["title", episode.lower], ["notes", episode.notes], ["transcript", episode.said]];
                if (!words.every((word) => fields.some(([, text]) => text.includes(word)))) continue;
                count += 1;
                if (items.length >= 100) continue;
                const where = fields.filter(([, text]) => words.some((word) => text.includes(word))).map(([name]) => name);
                const item = document.createElement("li");
                const link = document.createElement("a");
                link.href = show.href + "index.html#" + episode.id;
                link.textContent = episode.name;
                const meta = document.createElement("p");
                meta.className = "meta";
                meta.textContent = [show.title, episode.day, "in " + where.join(", ")].filter(Boolean).join(" · ");
                item.append(link, meta);
                items.push(item);
              }
            }
            list.append(...items);
            const more = count > items.length ? ` (the first ${items.length} shown)` : "";
            const waiting = pending > 0 ? " Still reading the notes and transcripts…" : "";
            const kept = shows.some((show) => show.transcripts);
            const files = !served && kept ? " Transcripts are searched when the site is served, not opened as a file." : "";
            status.textContent = `${count} episode${count === 1 ? "" : "s"} found${more}.${waiting}${files}`;
            document.body.dataset.searched = pending > 0 ? "partly" : "fully";
            document.body.dataset.searchMs = (performance.now() - start).toFixed(1);
          };
          box.addEventListener("input", search);
          const asked = new URLSearchParams(location.hash.slice(1)).get("q");
          if (asked) {
            box.value = asked;
            search();
          }
        })();
        """
}
