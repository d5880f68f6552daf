namespace Tank.Ammo;

/// <summary>One request exactly as it goes on the wire, plus the tag Tank reports it under.</summary>
public sealed record AmmoRequest(byte[] Bytes, string Tag);
