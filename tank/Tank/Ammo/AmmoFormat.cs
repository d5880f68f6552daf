using Harness.CommandLine;

namespace Tank.Ammo;

/// <summary>The ammo formats we write and read (Tank's <c>ammo_type</c>).</summary>
public enum AmmoFormat { Phantom, Uri, UriPost }

public static class AmmoFormats
{
    public static AmmoFormat Parse(string text) => text switch
    {
        "phantom" => AmmoFormat.Phantom,
        "uri" => AmmoFormat.Uri,
        "uripost" => AmmoFormat.UriPost,
        _ => throw new InputException($"unknown ammo format '{text}' (expected phantom, uri or uripost)"),
    };

    public static string Name(this AmmoFormat format) => format switch
    {
        AmmoFormat.Uri => "uri",
        AmmoFormat.UriPost => "uripost",
        _ => "phantom",
    };
}
