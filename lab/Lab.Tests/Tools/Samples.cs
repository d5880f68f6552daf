namespace Lab.Tests.Tools;

/// <summary>The captured outputs under Tools/Samples (see the csproj).</summary>
internal static class Samples
{
    public static string Read(string name) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Tools", "Samples", name));
}
