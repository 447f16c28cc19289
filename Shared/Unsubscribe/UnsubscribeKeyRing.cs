using System.Buffers.Binary;
using System.Security.Cryptography;

namespace Notifications.Shared.Unsubscribe;

/// <summary>
/// The keys of <see cref="UnsubscribeKeyOptions"/>, decoded, each under its fingerprint (what a token names its key by),
/// and the current one. Built from validated options (<see cref="UnsubscribeKeyOptionsValidator"/>).
/// </summary>
internal sealed class UnsubscribeKeyRing
{
    private static readonly byte[] FingerprintInfo = "notifications unsubscribe key fingerprint"u8.ToArray();
    private readonly Dictionary<uint, byte[]> _keys = [];

    public UnsubscribeKeyRing(UnsubscribeKeyOptions options)
    {
        foreach (var (name, value) in options.Keys)
        {
            byte[] key = TryDecodeKey(value) ?? throw new InvalidOperationException($"Unsubscribe:Keys:{name} is not a valid key");
            _keys[Fingerprint(key)] = key;
            if (name == options.CurrentKey || (options.CurrentKey is not { Length: > 0 } && options.Keys.Count == 1))
            {
                Current = (Fingerprint(key), key);
            }
        }
    }

    /// <summary>The key new tokens are made with, and its fingerprint; null when the ring is empty.</summary>
    public (uint Fingerprint, byte[] Key)? Current { get; }

    public bool TryGet(uint fingerprint, out byte[] key) => _keys.TryGetValue(fingerprint, out key!);

    /// <summary>A key's 4-byte name in tokens: derived from the key (HKDF-SHA256), so it reveals nothing of it and needs no bookkeeping.</summary>
    public static uint Fingerprint(byte[] key)
    {
        Span<byte> fingerprint = stackalloc byte[4];
        HKDF.Expand(HashAlgorithmName.SHA256, key, fingerprint, FingerprintInfo);
        return BinaryPrimitives.ReadUInt32BigEndian(fingerprint);
    }

    /// <summary>The key's bytes, or null unless <paramref name="value"/> is base64 of exactly <see cref="UnsubscribeKeyOptions.KeyBytes"/> bytes.</summary>
    public static byte[]? TryDecodeKey(string? value)
    {
        var bytes = new byte[UnsubscribeKeyOptions.KeyBytes + 3];
        return Convert.TryFromBase64String(value?.Trim() ?? "", bytes, out int written) && written == UnsubscribeKeyOptions.KeyBytes
            ? bytes[..written]
            : null;
    }
}
