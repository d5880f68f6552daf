using IntegrationService.Items;
using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>Locations as {id, text, x, y} tuples (the locations_* format in init.lua).</summary>
internal readonly record struct LocationBatch(IReadOnlyList<Location> Locations, int Start, int Count) : ITupleBatch
{
    public void Write(ref MessagePackWriter writer)
    {
        writer.WriteArrayHeader(Count);
        for (var i = Start; i < Start + Count; i++)
        {
            var location = Locations[i];
            writer.WriteArrayHeader(4);
            writer.Write(location.Id);
            writer.Write(location.Text);
            writer.Write(location.Coordinates.X);
            writer.Write(location.Coordinates.Y);
        }
    }
}
