using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using IntegrationService.Http;

namespace IntegrationService.Seeding;

/// <summary>
/// The catalogue as Markdown (<c>IntegrationService catalogue --markdown</c>, and <c>--write FILE</c>
/// for the block of docs/STORAGES.md between <see cref="BlockStart"/> and <see cref="BlockEnd"/>):
/// one table of the facts (names, aliases, what each serves, servers, caches, durability facts,
/// delivery, shardable, default), then each architecture's description and stated durability as a
/// list, since those texts are too long for a table cell. Only what the catalogue holds; the page
/// around the block explains the mechanisms.
/// </summary>
public static partial class CatalogueMarkdown
{
    public const string BlockStart = "<!-- catalogue:begin -->";
    public const string BlockEnd = "<!-- catalogue:end -->";

    private static readonly string[] Columns =
        ["name", "aliases", "serves", "servers", "caches", "fsync", "kill -9 loses", "power loss loses", "GET /read", "leased read", "shardable", "default for"];

    /// <summary>The block's Markdown (without the markers), ending in a newline.</summary>
    public static string Render(IReadOnlyList<StorageDescription> storages)
    {
        var md = new StringBuilder();
        md.Append("| ").AppendJoin(" | ", Columns).AppendLine(" |");
        md.Append('|').AppendJoin("", Columns.Select(_ => "---|")).AppendLine();
        foreach (var s in storages)
        {
            string[] cells =
            [
                Code(s.Name),
                string.Join(", ", s.Aliases.Select(Code)),
                string.Join(", ", s.Serves.Select(Cell)),
                string.Join(", ", s.Servers.Select(Code)),
                string.Join(", ", s.Caches.Select(Code)),
                Cell(s.Durability.Fsync) + Span(s.Durability.FsyncIntervalMs),
                Cell(s.Durability.ProcessCrash) + (s.Durability.ProcessCrash is "window" or "since-snapshot" ? Span(s.Durability.ProcessCrashWindowMs ?? s.Durability.LossWindowMs) : ""),
                Cell(s.Durability.PowerLoss) + (s.Durability.PowerLoss == "nothing" ? "" : Span(s.Durability.LossWindowMs)),
                s.Delivery is null ? "" : Cell(s.Delivery.Read),
                s.Delivery is null ? "" : Cell(s.Delivery.Leased),
                s.Shardable ? "yes" : "no",
                string.Join(", ", new[] { s.IsDefault ? "`Storage:Default`" : null, s.IsKvDefault ? "`Kv:Default`" : null }.OfType<string>()),
            ];
            md.Append("| ").AppendJoin(" | ", cells).AppendLine(" |");
        }
        md.AppendLine()
            .AppendLine("The columns, in the catalogue's words:")
            .AppendLine()
            .AppendLine("- *servers*: the `script/services` servers it cannot serve without; *caches*: those whose loss only slows it.")
            .AppendLine("- *fsync*: when an acknowledged write is forced to disk: per-commit (before the answer), periodic (at most every interval shown), " +
                        "kernel (written before the answer, flushed by the kernel's writeback), snapshot (only whole snapshots, every interval shown at best) or never.")
            .AppendLine("- *kill -9 loses*, *power loss loses*: what a kill of the server's process, and a power cut of its host, may cost in acknowledged writes: " +
                        "nothing, window (about the last span shown), since-snapshot (everything since the last snapshot) or anything.")
            .AppendLine("- *GET /read*, *leased read*: what each queue read path promises end to end when the reader, the service or the server fails mid-read: " +
                        "at-most-once (the message is removed before the answer is sent, so a read whose answer is lost loses it; none is handed out twice) " +
                        "or at-least-once (`POST /read/{queue}?lease=30s` holds the message until `POST /ack/{queue}/{receipt}`; one not acknowledged within its lease " +
                        "is delivered again, so a reader that fails after it got the message may see it twice), " +
                        "or at-most-once-until-failover (at-most-once, but a removal the old primary confirmed may be unknown to the one a failover elects, " +
                        "which hands the message out again).")
            .AppendLine("- *shardable*: it can be each node's own store in the sharded key-value topology.")
            .AppendLine("- *default for*: the setting that picks it for a request naming no architecture.")
            .AppendLine();
        var replicated = storages.Where(s => s.Replication is not null).ToList();
        if (replicated.Count > 0)
        {
            md.AppendLine("The replicated architectures (the others are one server each, with no failover):")
                .AppendLine()
                .AppendLine("| name | data nodes | voters | replication | failover | primary silent before failover | a failover loses | nodes the service asks |")
                .AppendLine("|---|---|---|---|---|---|---|---|");
            foreach (var s in replicated)
            {
                var r = s.Replication!;
                string[] cells =
                [
                    Code(s.Name), r.DataNodes.ToString(CultureInfo.InvariantCulture), r.Voters.ToString(CultureInfo.InvariantCulture),
                    Cell(r.Mode), Cell(r.Failover), Span(r.DetectionMs).Trim(' ', '(', ')'), Cell(r.FailoverLoss), string.Join(", ", r.Nodes.Select(Code)),
                ];
                md.Append("| ").AppendJoin(" | ", cells).AppendLine(" |");
            }
            md.AppendLine()
                .AppendLine("- *a failover loses*: nothing (every acknowledged write is on the node promoted) or unreplicated " +
                            "(the acknowledged writes the promoted replica had not received: asynchronous replication states no bound).")
                .AppendLine();
        }
        md
            .AppendLine("What each is, and its durability as the catalogue states it:")
            .AppendLine();
        foreach (var s in storages)
        {
            md.Append("- ").Append(Code(s.Name)).Append(": ").AppendLine(Sentence(s.Description));
            md.Append("  Durability: ").AppendLine(Sentence(s.Durability.Text));
        }
        return md.ToString().Replace("\r\n", "\n", StringComparison.Ordinal);
    }

    /// <summary>
    /// <paramref name="page"/> with the text between its markers replaced by <paramref name="block"/>
    /// (a blank line on either side); null when the page has no such block.
    /// </summary>
    public static string? ReplaceBlock(string page, string block)
    {
        var (start, end) = Bounds(page);
        return start < 0 ? null : page[..start] + "\n\n" + block.Trim('\n') + "\n\n" + page[end..];
    }

    /// <summary>The text between the page's markers, without the blank lines around it; null when there is no block.</summary>
    public static string? Block(string page)
    {
        var (start, end) = Bounds(page);
        return start < 0 ? null : page[start..end].Replace("\r\n", "\n", StringComparison.Ordinal).Trim('\n');
    }

    // From just after the start marker to the end marker; (-1, -1) when they are missing or out of order.
    private static (int Start, int End) Bounds(string page)
    {
        var start = page.IndexOf(BlockStart, StringComparison.Ordinal);
        var end = page.IndexOf(BlockEnd, StringComparison.Ordinal);
        return start < 0 || end < start ? (-1, -1) : (start + BlockStart.Length, end);
    }

    /// <summary>1000 → " (1 s)", 120000 → " (2 min)", 600 → " (600 ms)"; nothing when null.</summary>
    private static string Span(int? ms) => ms switch
    {
        null => "",
        int m when m % 60_000 == 0 => $" ({(m / 60_000).ToString(CultureInfo.InvariantCulture)} min)",
        int m when m % 1000 == 0 => $" ({(m / 1000).ToString(CultureInfo.InvariantCulture)} s)",
        int m => $" ({m.ToString(CultureInfo.InvariantCulture)} ms)",
    };

    private static string Code(string name) => name.Contains('`') ? $"`` {name} ``" : $"`{name}`";

    private static string Cell(string text) => Text(text).Replace("|", "\\|", StringComparison.Ordinal);

    private static string Sentence(string text)
    {
        var t = Text(text.Trim());
        return t.Length == 0 || t.EndsWith('.') ? t : t + ".";
    }

    /// <summary>Prose from the catalogue, escaped so that Markdown shows it as written (kv:&lt;key&gt; is not an HTML tag).</summary>
    private static string Text(string text)
    {
        var t = text.Replace("\\", "\\\\", StringComparison.Ordinal)
            .Replace("`", "\\`", StringComparison.Ordinal)
            .Replace("*", "\\*", StringComparison.Ordinal)
            .Replace("<", "&lt;", StringComparison.Ordinal)
            .Replace(">", "&gt;", StringComparison.Ordinal)
            .Replace("\n", " ", StringComparison.Ordinal);
        // An underscore inside a word (wal_mode) is never emphasis; one at a word's edge could be.
        return EdgeUnderscore().Replace(t, "\\_");
    }

    [GeneratedRegex(@"(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])")]
    private static partial Regex EdgeUnderscore();
}
