using Harness.CommandLine;
using YamlDotNet.Core;
using YamlDotNet.RepresentationModel;
using YamlDotNet.Serialization;
using YamlDotNet.Serialization.NamingConventions;

namespace Lab.Bench;

/// <summary>
/// Reads a bench profile: lab/profiles/default.yaml, then quick.yaml over it with <c>--quick</c>,
/// then a user's <c>--profile</c> file over that (only the keys a file names change). A key no
/// profile has, a value of the wrong type or out of range is bad input naming the file and line.
/// </summary>
public static class ProfileFile
{
    public static string Folder(string root) => Path.Combine(root, "lab", "profiles");

    /// <summary>The profile of a run and the files it was read from, in order.</summary>
    public static (BenchProfile Profile, IReadOnlyList<string> Files) Load(string root, bool quick, string? overridePath)
    {
        var files = new List<string> { Path.Combine(Folder(root), "default.yaml") };
        if (quick) files.Add(Path.Combine(Folder(root), "quick.yaml"));
        if (overridePath is not null) files.Add(Path.GetFullPath(overridePath));
        return (Read(files), files);
    }

    /// <summary>The files merged in order, later keys over earlier ones.</summary>
    public static BenchProfile Read(IReadOnlyList<string> files)
    {
        var known = typeof(BenchProfile).GetProperties().Where(p => p.CanWrite).Select(p => UnderscoredNamingConvention.Instance.Apply(p.Name)).ToHashSet();
        var merged = new YamlMappingNode();
        foreach (var file in files)
        {
            foreach (var (key, value) in Mapping(file).Children)
            {
                var name = ((YamlScalarNode)key).Value ?? "";
                if (!known.Contains(name))
                    throw new InputException(file, $"line {key.Start.Line}", $"unknown key '{name}' (known: {string.Join(", ", known.Order(StringComparer.Ordinal))})");
                merged.Children[new YamlScalarNode(name)] = value;
            }
        }
        var text = new StringWriter();
        new YamlStream(new YamlDocument(merged)).Save(text, assignAnchors: false);
        BenchProfile profile;
        try
        {
            profile = new DeserializerBuilder().WithNamingConvention(UnderscoredNamingConvention.Instance).Build().Deserialize<BenchProfile>(text.ToString());
        }
        catch (YamlException e)
        {
            throw new InputException(files[^1], "a value", $"not of its key's type: {e.InnerException?.Message ?? e.Message}");
        }
        if (profile.Problems().FirstOrDefault() is { } problem) throw new InputException(files[^1], "profile", problem);
        return profile;
    }

    /// <summary>The merged profile as YAML, as the report prints it.</summary>
    public static string Render(BenchProfile profile) =>
        new SerializerBuilder().WithNamingConvention(UnderscoredNamingConvention.Instance).Build().Serialize(profile);

    private static YamlMappingNode Mapping(string file)
    {
        if (!File.Exists(file)) throw new InputException(file, "file", "no such profile");
        var stream = new YamlStream();
        try
        {
            using var reader = new StreamReader(file);
            stream.Load(reader);
        }
        catch (YamlException e)
        {
            throw new InputException(file, $"line {e.Start.Line}, column {e.Start.Column}", $"not valid YAML: {e.Message}");
        }
        if (stream.Documents.Count == 0) return new YamlMappingNode();
        return stream.Documents[0].RootNode as YamlMappingNode ?? throw new InputException(file, "line 1", "a profile is a mapping of keys to values");
    }
}
