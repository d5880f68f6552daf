using System.Xml.Linq;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Unit;

/// <summary>
/// The image cannot be built on this machine (no Docker engine), so the Dockerfile is checked against
/// the projects instead: every project the service references, directly or not, is copied into the
/// build stage (its project file for the restore layer, its folder for the build), and none of them
/// is left out of the build context by .dockerignore.
/// </summary>
public sealed class DockerfileTests
{
    [Fact]
    public void EveryProjectTheServiceReferencesIsCopiedIntoTheImagesBuild()
    {
        var root = RepositoryRoot.Path;
        var dockerfile = File.ReadAllLines(Path.Combine(root, "Dockerfile"));
        var ignored = File.ReadAllLines(Path.Combine(root, ".dockerignore")).Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).ToList();
        var problems = new List<string>();
        foreach (var project in Referenced(Path.Combine(root, "IntegrationService", "IntegrationService.csproj")))
        {
            var file = Path.GetRelativePath(root, project).Replace('\\', '/');
            var folder = Path.GetDirectoryName(file)!.Replace('\\', '/') + "/";
            if (!dockerfile.Any(l => l.StartsWith($"COPY {file} ", StringComparison.Ordinal))) problems.Add($"no 'COPY {file} …' for the restore layer");
            if (!dockerfile.Any(l => l.StartsWith($"COPY {folder} ", StringComparison.Ordinal))) problems.Add($"no 'COPY {folder} …' for the build");
            if (ignored.FirstOrDefault(i => folder.StartsWith(i.TrimStart('/'), StringComparison.Ordinal)) is { } rule) problems.Add($".dockerignore's '{rule}' leaves {folder} out");
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    /// <summary>The image runs the service with runtime.env's settings (the gen0 budget), as the scripts do, and the publish carries the file.</summary>
    [Fact]
    public void TheImageStartsTheServiceWithItsRuntimeSettings()
    {
        var root = RepositoryRoot.Path;
        var entrypoint = File.ReadAllLines(Path.Combine(root, "Dockerfile")).Single(l => l.StartsWith("ENTRYPOINT ", StringComparison.Ordinal));
        Assert.Contains(". ./runtime.env", entrypoint);
        Assert.Contains("exec dotnet IntegrationService.dll", entrypoint);
        var file = XDocument.Load(Path.Combine(root, "IntegrationService", "IntegrationService.csproj")).Descendants("None")
            .SingleOrDefault(n => n.Attribute("Include")?.Value == "runtime.env");
        Assert.True(file is not null, "IntegrationService.csproj does not include runtime.env");
        Assert.Equal("PreserveNewest", file.Attribute("CopyToPublishDirectory")?.Value);
    }

    // The project and every project it references, transitively.
    private static IEnumerable<string> Referenced(string project)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var queue = new Queue<string>([Path.GetFullPath(project)]);
        while (queue.TryDequeue(out var current))
        {
            if (!seen.Add(current)) continue;
            foreach (var reference in XDocument.Load(current).Descendants("ProjectReference"))
                queue.Enqueue(Path.GetFullPath(Path.Combine(Path.GetDirectoryName(current)!, reference.Attribute("Include")!.Value)));
        }
        return seen;
    }
}
