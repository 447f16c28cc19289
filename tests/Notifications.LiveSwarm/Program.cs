using System.Runtime.InteropServices;
using System.Security.Cryptography.X509Certificates;
using Notifications.LiveSwarm;

// N live clients of the stack's gateway (scripts/swarm gateway-kill, scripts/swarm-smoke): each connects as subscriber
// <prefix><i>, acks every notification it receives and reconnects whenever its connection ends, until SIGTERM. What they
// see goes to one file, a line an event: "connected I ADDRESS", "disconnected I ADDRESS REASON", "received I ID".
if (SwarmOptions.Parse(args) is not { } options)
{
    await Console.Error.WriteLineAsync(SwarmOptions.Usage);
    return 2;
}

using var stop = new CancellationTokenSource();
using var onTerm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => { c.Cancel = true; stop.Cancel(); });
using var onInt = PosixSignalRegistration.Create(PosixSignal.SIGINT, c => { c.Cancel = true; stop.Cancel(); });
using var ca = X509Certificate2.CreateFromPem(await File.ReadAllTextAsync(options.CaFile));
string key = (await File.ReadAllTextAsync(options.KeyFile)).Trim();
await using var events = new EventLog(options.OutFile);
var clients = Enumerable.Range(0, options.Clients).Select(i => new SwarmClient(i, options, key, ca, events).RunAsync(stop.Token));
await Task.WhenAll(clients);
return 0;
