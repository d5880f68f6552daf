using System.Text.RegularExpressions;
using YamlDotNet.Core;
using YamlDotNet.RepresentationModel;
using Harness.CommandLine;

namespace Tank.Config;

/// <summary>
/// Type checks that mimic what Tank sees after PyYAML (YAML 1.1) and cerberus: an unquoted
/// <c>1.1</c> is a float, not a string; <c>yes</c> is a boolean. Errors name file, line and column.
/// </summary>
internal sealed partial class YamlTypes(string file)
{
    [GeneratedRegex(@"^[-+]?[0-9]+$")]
    private static partial Regex IntPattern();

    [GeneratedRegex(@"^[-+]?([0-9]*\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$")]
    private static partial Regex FloatPattern();

    [GeneratedRegex(@"^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$")]
    private static partial Regex BoolPattern();

    [GeneratedRegex(@"^(~|null|Null|NULL|)$")]
    private static partial Regex NullPattern();

    public string Where(YamlNode node) => $"line {node.Start.Line}, column {node.Start.Column}";

    public InputException Error(YamlNode node, string message) => new(file, Where(node), message);

    public string Source(YamlNode node) => $"{file}:{node.Start.Line}";

    public YamlMappingNode Mapping(YamlNode node, string key) =>
        node as YamlMappingNode ?? throw Error(node, $"'{key}' must be a mapping");

    public string String(YamlNode node, string key)
    {
        var scalar = Scalar(node, key, "a string");
        if (scalar.Style == ScalarStyle.Plain && (IntPattern().IsMatch(scalar.Value!) || FloatPattern().IsMatch(scalar.Value!)
                || BoolPattern().IsMatch(scalar.Value!) || NullPattern().IsMatch(scalar.Value!)))
            throw Error(node, $"'{key}' must be a string: quote the value (\"{scalar.Value}\")");
        return scalar.Value ?? "";
    }

    public long Integer(YamlNode node, string key)
    {
        var scalar = Scalar(node, key, "an integer");
        if (scalar.Style != ScalarStyle.Plain || !IntPattern().IsMatch(scalar.Value!) || !long.TryParse(scalar.Value, out var value))
            throw Error(node, $"'{key}' must be an integer, not '{scalar.Value}'");
        return value;
    }

    public bool Boolean(YamlNode node, string key)
    {
        var scalar = Scalar(node, key, "a boolean");
        if (scalar.Style != ScalarStyle.Plain || !BoolPattern().IsMatch(scalar.Value!))
            throw Error(node, $"'{key}' must be a boolean (true/false), not '{scalar.Value}'");
        return scalar.Value!.ToLowerInvariant() is "y" or "yes" or "true" or "on";
    }

    public List<string> StringList(YamlNode node, string key) =>
        node is YamlSequenceNode sequence
            ? sequence.Children.Select(child => String(child, key + "[]")).ToList()
            : throw Error(node, $"'{key}' must be a list of strings");

    /// <summary>Validates a scalar against a schema type name without keeping the value.</summary>
    public void Check(YamlNode node, string key, string type)
    {
        switch (type)
        {
            case "string": String(node, key); break;
            case "integer": Integer(node, key); break;
            case "boolean": Boolean(node, key); break;
            case "list": StringList(node, key); break;
            case "dict": Mapping(node, key); break;
            case "int|string": if (node is not YamlScalarNode) throw Error(node, $"'{key}' must be an integer or a string"); break;
            case "nullable-integer":
                if (node is YamlScalarNode { Style: ScalarStyle.Plain } n && NullPattern().IsMatch(n.Value!)) break;
                Integer(node, key); break;
            case "nullable-string":
                if (node is YamlScalarNode { Style: ScalarStyle.Plain } s && NullPattern().IsMatch(s.Value!)) break;
                String(node, key); break;
            default: break;
        }
    }

    private YamlScalarNode Scalar(YamlNode node, string key, string what) =>
        node as YamlScalarNode ?? throw Error(node, $"'{key}' must be {what}");
}
