using System.Text.RegularExpressions;
using Tank.Ammo;
using Tank.Autostop;
using Tank.Schedule;
using YamlDotNet.Core;
using YamlDotNet.RepresentationModel;
using Harness.CommandLine;

namespace Tank.Config;

/// <summary>
/// Reads a Tank load.yaml as strictly as Tank's cerberus validation does, and checks the parts we
/// execute (schedule, autostop, timeout) up front so a bad config fails before any request is sent.
/// </summary>
public static partial class LoadConfigReader
{
    [GeneratedRegex(@"^([0-9]+)(ms|s|m|h)?$")]
    private static partial Regex TimeoutPattern();

    public static LoadConfig Read(string path)
    {
        if (!File.Exists(path)) throw new InputException(path, "file", "config not found");
        var stream = new YamlStream();
        try
        {
            using var reader = new StreamReader(path);
            stream.Load(reader);
        }
        catch (YamlException e)
        {
            throw new InputException(path, $"line {e.Start.Line}, column {e.Start.Column}", $"not valid YAML: {e.Message}");
        }
        if (stream.Documents.Count == 0) throw new InputException(path, "line 1", "the config is empty");
        var types = new YamlTypes(path);
        var root = types.Mapping(stream.Documents[0].RootNode, "load.yaml");

        YamlMappingNode? phantom = null;
        IReadOnlyList<(string, string)> autostop = [];
        foreach (var (keyNode, value) in root.Children)
        {
            var key = ((YamlScalarNode)keyNode).Value!;
            if (!PhantomSchema.Sections.Contains(key)) throw types.Error(keyNode, $"unknown section '{key}'");
            var section = types.Mapping(value, key);
            if (section.Children.TryGetValue(new YamlScalarNode("enabled"), out var enabled)) types.Boolean(enabled, key + ".enabled");
            if (key == "phantom") phantom = section;
            if (key == "autostop") autostop = ReadAutostop(section, types);
        }
        if (phantom is null) throw new InputException(path, "line 1", "no 'phantom' section: the runner executes phantom configs");
        return ReadPhantom(path, phantom, types) with { Autostop = autostop };
    }

    private static LoadConfig ReadPhantom(string path, YamlMappingNode phantom, YamlTypes types)
    {
        var values = new Dictionary<string, YamlNode>();
        foreach (var (keyNode, value) in phantom.Children)
        {
            var key = ((YamlScalarNode)keyNode).Value!;
            if (!PhantomSchema.Options.TryGetValue(key, out var type)) throw types.Error(keyNode, $"unknown key 'phantom.{key}'");
            types.Check(value, "phantom." + key, type);
            values[key] = value;
        }
        if (values.TryGetValue("enabled", out var enabled) && !types.Boolean(enabled, "phantom.enabled"))
            throw types.Error(enabled, "the phantom section is disabled; nothing to run");
        var address = values.TryGetValue("address", out var a) ? types.String(a, "phantom.address")
            : throw types.Error(phantom, "'phantom.address' is required");
        if (!values.TryGetValue("load_profile", out var profileNode)) throw types.Error(phantom, "'phantom.load_profile' is required");
        var (loadType, schedule, scheduleSource) = ReadLoadProfile((YamlMappingNode)profileNode, types);

        var ammoType = values.TryGetValue("ammo_type", out var t) ? types.String(t, "phantom.ammo_type") : "phantom";
        if (ammoType == "access") throw types.Error(t!, "ammo_type 'access' is not supported by the local runner");
        var hasAmmo = values.TryGetValue("ammofile", out var ammoNode) && types.String(ammoNode, "phantom.ammofile").Length > 0;
        var hasUris = values.TryGetValue("uris", out var urisNode) && types.StringList(urisNode, "phantom.uris").Count > 0;
        if (hasAmmo == hasUris) throw types.Error(phantom, "set exactly one of 'phantom.ammofile' and 'phantom.uris'");
        var headerHttp = values.TryGetValue("header_http", out var h) ? types.String(h, "phantom.header_http") : "1.0";
        if (headerHttp is not ("1.0" or "1.1")) throw types.Error(h!, "'phantom.header_http' must be \"1.0\" or \"1.1\"");

        return new LoadConfig
        {
            Path = path,
            Address = address,
            LoadType = loadType,
            Schedule = schedule,
            ScheduleSource = scheduleSource,
            AmmoFile = hasAmmo ? types.String(ammoNode!, "phantom.ammofile") : null,
            AmmoType = values.ContainsKey("ammo_type") ? ParseAmmoType(ammoType, t!, types) : AmmoFormat.Phantom,
            Uris = hasUris ? types.StringList(urisNode!, "phantom.uris") : [],
            Headers = values.TryGetValue("headers", out var hs) ? types.StringList(hs, "phantom.headers") : [],
            HeaderHttp = headerHttp,
            Instances = (int)Positive(values, "instances", 1000, types),
            TimeoutMs = values.TryGetValue("timeout", out var to) ? Timeout(types.String(to, "phantom.timeout"), to, types) : 11_000,
            Loop = values.TryGetValue("loop", out var l) ? types.Integer(l, "phantom.loop") : -1,
            AmmoLimit = values.TryGetValue("ammo_limit", out var al) ? types.Integer(al, "phantom.ammo_limit") : -1,
        };
    }

    private static (string, string, string) ReadLoadProfile(YamlMappingNode profile, YamlTypes types)
    {
        string loadType = "rps";
        YamlNode? scheduleNode = null;
        foreach (var (keyNode, value) in profile.Children)
        {
            var key = ((YamlScalarNode)keyNode).Value!;
            if (!PhantomSchema.LoadProfileKeys.Contains(key)) throw types.Error(keyNode, $"unknown key 'phantom.load_profile.{key}'");
            if (key == "load_type") loadType = types.String(value, "load_type");
            else scheduleNode = value;
        }
        if (loadType is not ("rps" or "instances"))
            throw types.Error(profile, $"load_type '{loadType}' is not supported (use rps or instances)");
        if (scheduleNode is null) throw types.Error(profile, "'phantom.load_profile.schedule' is required");
        var schedule = types.String(scheduleNode, "schedule");
        ScheduleParser.Parse(schedule, types.Source(scheduleNode)); // fail now, with the yaml line
        return (loadType, schedule, types.Source(scheduleNode));
    }

    private static List<(string, string)> ReadAutostop(YamlMappingNode section, YamlTypes types)
    {
        var result = new List<(string, string)>();
        foreach (var (keyNode, value) in section.Children)
        {
            var key = ((YamlScalarNode)keyNode).Value!;
            if (!PhantomSchema.AutostopKeys.Contains(key)) throw types.Error(keyNode, $"unknown key 'autostop.{key}'");
            if (key is "package" or "report_file") types.String(value, "autostop." + key);
            if (key != "autostop") continue;
            var items = value as YamlSequenceNode ?? throw types.Error(value, "'autostop.autostop' must be a list of criteria");
            foreach (var item in items)
            {
                var text = types.String(item, "autostop.autostop[]");
                AutostopParser.Parse(text, types.Source(item)); // fail now, with the yaml line
                result.Add((text, types.Source(item)));
            }
        }
        return result;
    }

    private static AmmoFormat ParseAmmoType(string text, YamlNode node, YamlTypes types)
    {
        try { return AmmoFormats.Parse(text); }
        catch (InputException e) { throw types.Error(node, e.Message); }
    }

    private static long Positive(Dictionary<string, YamlNode> values, string key, long fallback, YamlTypes types)
    {
        if (!values.TryGetValue(key, out var node)) return fallback;
        var value = types.Integer(node, "phantom." + key);
        return value > 0 ? value : throw types.Error(node, $"'phantom.{key}' must be above zero");
    }

    /// <summary>Tank's timeout: a whole number, ms by default, or with ms/s/m/h.</summary>
    internal static long Timeout(string text, YamlNode? node = null, YamlTypes? types = null)
    {
        var match = TimeoutPattern().Match(text);
        if (!match.Success || long.Parse(match.Groups[1].Value) == 0)
        {
            var message = $"timeout '{text}' must be a whole number above zero with ms, s, m or h";
            throw node is not null && types is not null ? types.Error(node, message) : new InputException(message);
        }
        var unit = match.Groups[2].Value switch { "s" => 1_000L, "m" => 60_000L, "h" => 3_600_000L, _ => 1L };
        return long.Parse(match.Groups[1].Value) * unit;
    }
}
