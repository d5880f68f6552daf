using IntegrationService.Items;
using IntegrationService.Storage.Tarantool.Iproto;

namespace IntegrationService.Storage.Tarantool;

/// <summary>Locations as {id, text, x, y} tuples (the locations_* format in init.lua).</summary>
internal readonly record struct LocationBatch(IReadOnlyList<Location> Locations, int Start, int Count) : ITupleBatch
{
    public void Write(ref MsgPackWriter writer)
    {
        writer.WriteArrayHeader(Count);
        for (var i = Start; i < Start + Count; i++)
        {
            var location = Locations[i];
            writer.WriteArrayHeader(4);
            writer.WriteInt64(location.Id);
            writer.WriteString(location.Text);
            writer.WriteDouble(location.Coordinates.X);
            writer.WriteDouble(location.Coordinates.Y);
        }
    }
}
