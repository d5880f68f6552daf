using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Unit;

/// <summary>README.md stays a page a newcomer reads in five minutes: short, the quickstart near the top, no wall-of-text table cells.</summary>
public sealed class ReadmeTests
{
    private static readonly string[] Lines = File.ReadAllLines(Path.Combine(RepositoryRoot.Path, "README.md"));

    [Fact]
    public void TheReadmeIsAtMost200Lines() => Assert.InRange(Lines.Length, 1, 200);

    [Fact]
    public void TheQuickstartStartsWithinTheFirst60Lines() =>
        Assert.InRange(Array.FindIndex(Lines, l => l == "## Quickstart") + 1, 1, 60);

    [Fact]
    public void NoTableCellIsOver400Characters()
    {
        Assert.DoesNotContain(Lines.Where(l => l.StartsWith('|')).SelectMany(l => l.Split('|')), cell => cell.Length > 400);
    }

    [Fact]
    public void EveryRelativeLinkPointsAtAFileThatExists()
    {
        var links = Lines.SelectMany(l => System.Text.RegularExpressions.Regex.Matches(l, @"\]\(([^)#:]+)(#[^)]*)?\)").Select(m => m.Groups[1].Value));
        Assert.DoesNotContain(links, link => !File.Exists(Path.Combine(RepositoryRoot.Path, link)) && !Directory.Exists(Path.Combine(RepositoryRoot.Path, link)));
    }
}
