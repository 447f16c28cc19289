namespace Notifications.LiveSwarm;

/// <summary>The command line: where the gateway is, what to trust, the token key, how many clients, where to write.</summary>
internal sealed record SwarmOptions(Uri Uri, string CaFile, string KeyFile, int Clients, string Prefix, string OutFile)
{
    public const string Usage = "usage: Notifications.LiveSwarm --uri wss://gateway:8090/live --ca CA.crt --key-file KEY --clients N [--prefix swarm-] --out FILE";

    public static SwarmOptions? Parse(string[] args)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        for (int i = 0; i + 1 < args.Length; i += 2)
        {
            values[args[i]] = args[i + 1];
        }

        string? Get(string name) => values.GetValueOrDefault(name);
        return Get("--uri") is { } uri && Get("--ca") is { } ca && Get("--key-file") is { } key && Get("--out") is { } output
            && int.TryParse(Get("--clients"), out int clients) && clients > 0
            ? new SwarmOptions(new Uri(uri), ca, key, clients, Get("--prefix") ?? "swarm-", output)
            : null;
    }
}
