namespace Harness.CommandLine;

/// <summary>
/// Turns one command-line token into a typed value, or throws a <see cref="InputException"/>
/// whose message names <paramref name="option"/> and the bad <paramref name="text"/>. Taking the
/// option's name as an argument lets one parser serve several options and keeps every message in
/// the same shape (<c>--count: 'x' is not a whole number</c>).
/// </summary>
public delegate T ValueParser<out T>(string option, string text);
