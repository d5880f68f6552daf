using System.CommandLine;
using Harness.CommandLine;
using Lab.Report;
using Tank.Commands;

namespace Lab.Commands;

/// <summary>
/// <c>lab env &lt;run dir&gt; [--server name=version]… [--durability name=text]… [--note text] [--command text]</c>:
/// writes environment.json with what it can detect (cores, memory, CPU, OS) and what script/bench knows
/// (server versions, each architecture's durability settings).
/// </summary>
public sealed class EnvCommand : Command
{
    private readonly Argument<string> _runDir = new("run-dir") { Description = "Where environment.json goes (created if missing)" };
    private readonly Option<KeyValuePair<string, string>[]> _server = CliOption.Many("--server", "A server and its version (repeatable)", ValueParsers.NamedText, "name=version");
    private readonly Option<KeyValuePair<string, string>[]> _durability = CliOption.Many("--durability", "An architecture and its durability settings (repeatable)", ValueParsers.NamedText, "name=text");
    private readonly Option<string?> _note = CliOption.Create<string?>("--note", "Free text shown with the environment", ValueParsers.Text, "text");
    private readonly Option<string?> _command = CliOption.Create<string?>("--command", "The command line that made the run (the results page shows it)", ValueParsers.Text, "text");

    public EnvCommand() : base("env", "Writes environment.json: cores, memory, CPU and OS detected; servers, durability and the note from the options")
    {
        Add(_runDir);
        Add(_server);
        Add(_durability);
        Add(_note);
        Add(_command);
        SetAction(Run);
    }

    private int Run(ParseResult parse)
    {
        var path = EnvironmentFile.Write(parse.GetRequiredValue(_runDir), Distinct(parse.GetRequiredValue(_server), _server.Name),
            Distinct(parse.GetRequiredValue(_durability), _durability.Name), parse.GetValue(_note), parse.GetValue(_command));
        Console.Error.WriteLine($"lab: wrote {path}");
        return 0;
    }

    // A name given twice would silently lose one of its values.
    private static Dictionary<string, string> Distinct(KeyValuePair<string, string>[] pairs, string option)
    {
        var result = new Dictionary<string, string>();
        foreach (var (name, value) in pairs)
        {
            if (!result.TryAdd(name, value)) throw new InputException($"{option}: '{name}' is given twice");
        }
        return result;
    }
}
