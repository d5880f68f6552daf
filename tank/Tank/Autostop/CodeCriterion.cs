using System.Globalization;
using Tank.Stats;

namespace Tank.Autostop;

/// <summary>
/// <c>http(mask, level, window)</c> and <c>net(mask, level, window)</c>: codes matching the mask
/// (x = any digit, whole code) reach the level, absolute or as a share of the second's responses.
/// Net code 0 (success) never counts, as in Tank.
/// </summary>
public sealed class CodeCriterion(string text, bool net, string mask, double level, bool relative, long window, string? tag)
    : WindowedCriterion(text, window, tag)
{
    public bool Net { get; } = net;
    public string Mask { get; } = mask;
    public double Level { get; } = level;
    public bool Relative { get; } = relative;
    public override int ExitCode => Net ? ExitCodes.Net : ExitCodes.Http;

    protected override bool Breaches(SecondStats second)
    {
        var codes = Net ? second.NetCodes : second.HttpCodes;
        double matched = codes.Where(c => !(Net && c.Key == 0) && Matches(c.Key)).Sum(c => c.Value);
        if (Relative) matched = second.Count == 0 ? 0 : matched / second.Count;
        return matched >= Level;
    }

    public bool Matches(int code)
    {
        var text = code.ToString(CultureInfo.InvariantCulture);
        if (text.Length != Mask.Length) return false;
        for (var i = 0; i < text.Length; i++)
            if (Mask[i] != 'x' && Mask[i] != text[i]) return false;
        return true;
    }
}
