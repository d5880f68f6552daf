using System.Text.RegularExpressions;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// Every link to a section (<c>(#name)</c> or <c>(page.md#name)</c>) in the repository's pages leads to a heading that
/// exists, as GitHub names headings. The dated notes in docs/journal are left out: they link pages as they were that day.
/// </summary>
public sealed partial class MarkdownAnchorTests
{
    private static readonly string[] Skipped = ["bin", "obj", "node_modules", ".data", "reports", ".git", ".terraform", "TestResults", "journal"];

    public static TheoryData<string> Pages()
    {
        var pages = new TheoryData<string>();
        foreach (var page in PagesUnder(RepositoryRoot.Path)) pages.Add(Path.GetRelativePath(RepositoryRoot.Path, page));
        return pages;
    }

    [Theory]
    [MemberData(nameof(Pages))]
    public void EverySectionLinkLeadsToAHeading(string page)
    {
        var path = Path.Combine(RepositoryRoot.Path, page);
        var broken = new List<string>();
        foreach (var (line, number) in Prose(path))
        {
            foreach (Match link in SectionLink().Matches(line))
            {
                var target = link.Groups["file"].Value is { Length: > 0 } file ? Path.GetFullPath(Path.Combine(Path.GetDirectoryName(path)!, file)) : path;
                if (!target.EndsWith(".md", StringComparison.Ordinal) || !File.Exists(target)) continue;
                if (!Anchors(target).Contains(link.Groups["anchor"].Value))
                    broken.Add($"{page}:{number}: #{link.Groups["anchor"].Value} is no heading of {Path.GetRelativePath(RepositoryRoot.Path, target)}");
            }
        }
        Assert.Empty(broken);
    }

    [Theory]
    [InlineData("## lab compare and history", "lab-compare-and-history")]
    [InlineData("## Capacity at the SLO (p99 ≤ 10 ms, < 0.1 % errors)", "capacity-at-the-slo-p99--10-ms--01--errors")]
    [InlineData("### `script/bench` — the main job", "scriptbench--the-main-job")]
    [InlineData("## [Failover](x.md)", "failover")]
    public void HeadingsAreNamedAsGitHubNamesThem(string heading, string anchor) =>
        Assert.Equal(anchor, Slug(Heading().Match(heading).Groups["text"].Value));

    [Fact]
    public void ABrokenSectionLinkIsFound()
    {
        var page = Path.Combine(Directory.CreateTempSubdirectory("anchors-").FullName, "page.md");
        try
        {
            File.WriteAllLines(page, ["# Page", "## Lab compare", "see [it](#lab-compare) and [that](#tank-compare)", "```", "[in code](#nowhere)", "```"]);
            var links = Prose(page).SelectMany(l => SectionLink().Matches(l.Line)).Select(m => m.Groups["anchor"].Value).ToList();
            Assert.Equal(["lab-compare", "tank-compare"], links);
            Assert.DoesNotContain("tank-compare", Anchors(page));
            Assert.Contains("lab-compare", Anchors(page));
        }
        finally
        {
            Directory.Delete(Path.GetDirectoryName(page)!, recursive: true);
        }
    }

    private static IEnumerable<string> PagesUnder(string directory)
    {
        foreach (var page in Directory.EnumerateFiles(directory, "*.md")) yield return page;
        foreach (var sub in Directory.EnumerateDirectories(directory))
        {
            if (Skipped.Contains(Path.GetFileName(sub))) continue;
            foreach (var page in PagesUnder(sub)) yield return page;
        }
    }

    /// <summary>The page's lines outside fenced code, with their numbers.</summary>
    private static IEnumerable<(string Line, int Number)> Prose(string page)
    {
        var inCode = false;
        var number = 0;
        foreach (var line in File.ReadLines(page))
        {
            number++;
            if (line.StartsWith("```", StringComparison.Ordinal)) { inCode = !inCode; continue; }
            if (!inCode) yield return (line, number);
        }
    }

    /// <summary>The page's headings as GitHub names them (a repeated one gets -1, -2, …), and its explicit anchors.</summary>
    private static HashSet<string> Anchors(string page)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var (line, _) in Prose(page))
        {
            if (Heading().Match(line) is { Success: true } heading)
            {
                var slug = Slug(heading.Groups["text"].Value);
                var times = seen.GetValueOrDefault(slug);
                seen[slug] = times + 1;
                anchors.Add(times == 0 ? slug : $"{slug}-{times}");
            }
            foreach (Match named in NamedAnchor().Matches(line)) anchors.Add(named.Groups[1].Value);
        }
        return anchors;
    }

    /// <summary>GitHub's heading anchor: link text kept, code marks dropped, lower case, punctuation gone, spaces to hyphens.</summary>
    private static string Slug(string heading)
    {
        var text = LinkText().Replace(heading, "$1").Replace("`", "", StringComparison.Ordinal).Trim().ToLowerInvariant();
        return NotInSlug().Replace(text, "").Replace(' ', '-');
    }

    [GeneratedRegex(@"^#{1,6}\s+(?<text>.*?)\s*#*\s*$")]
    private static partial Regex Heading();

    [GeneratedRegex(@"\]\((?<file>[^)#\s:]*)#(?<anchor>[^)\s]+)\)")]
    private static partial Regex SectionLink();

    [GeneratedRegex(@"<a (?:name|id)=""([^""]+)""")]
    private static partial Regex NamedAnchor();

    [GeneratedRegex(@"\[([^\]]*)\]\([^)]*\)")]
    private static partial Regex LinkText();

    [GeneratedRegex(@"[^\w\- ]")]
    private static partial Regex NotInSlug();
}
