using System.Globalization;
using Notifications.Harness.FanOut;
using Notifications.Harness.Live;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// What to measure: <c>Notifications.Harness [run|sweep|latency|ceilings|priority|inserts|fanout|live] [--key value ...]</c>
/// (flags without a value: <c>--ceilings</c>, <c>--baseline</c>, <c>--template</c>, <c>--single</c>, <c>--arrivals</c>), or <c>receiver webhook|push</c> (a receiving
/// server alone, as its own process); the options: scripts/bench --help.
/// </summary>
internal sealed class HarnessOptions
{
    public string Mode { get; private set; } = "run";

    /// <summary>Rows seeded into the outbox before a run.</summary>
    public int Rows { get; private set; } = 1_000_000;

    /// <summary>The killswitch window (Consumer:RunFor) and the producers' run time.</summary>
    public TimeSpan Duration { get; private set; } = TimeSpan.FromSeconds(60);

    public int Producers { get; private set; } = 1;

    public int Consumers { get; private set; } = 1;

    /// <summary>
    /// Consumer processes of the urgent lane alone (<c>Consumer:Lanes=Urgent</c>) beside the <see cref="Consumers"/>, which then
    /// consume the standard lane alone; 0: every consumer consumes both.
    /// </summary>
    public int UrgentConsumers { get; private set; }

    /// <summary>Every consumer process a run starts.</summary>
    public int ConsumerProcesses => Consumers + UrgentConsumers;

    public int[] Handlers { get; private set; } = [64];

    public int[] Prefetch { get; private set; } = [512];

    public int[] Batch { get; private set; } = [1000];

    public int Channels { get; private set; } = 1;

    /// <summary>Producer:EnvelopeSize of each run (a list in sweeps); the producer's own default when not given.</summary>
    public int[] Envelope { get; private set; } = [new Notifications.Producer.ProducerOptions().EnvelopeSize];

    /// <summary>
    /// When set: notifications in flight per consumer channel, and each run's prefetch (in messages) is this over
    /// its envelope size, so runs with different envelopes hold the same work in their prefetch windows.
    /// </summary>
    public int? InFlight { get; private set; }

    /// <summary>Sweep: after each point, a steady run at <see cref="Rate"/> this long, for its p99 (<c>--sweep-latency 20s</c>).</summary>
    public TimeSpan? SweepLatency { get; private set; }

    /// <summary>Latency runs: percentiles leave out deliveries this soon after the first (JIT, connections, pools warming up).</summary>
    public TimeSpan LatencyWarmup { get; private set; } = TimeSpan.FromSeconds(5);

    /// <summary>The prefetch (AMQP messages) of a run with <paramref name="envelope"/>: from <see cref="InFlight"/> if set.</summary>
    public int PrefetchFor(int prefetch, int envelope) => InFlight is { } n ? Math.Max(2, (n + envelope - 1) / envelope) : prefetch;

    public string DeliveryMode { get; private set; } = "AtLeastOnce";

    /// <summary><c>smtp</c> (real SMTP to a private smtp-sink) or <c>simulated</c> (Consumer:Sender=Simulated, 10 ms).</summary>
    public string Sender { get; private set; } = "smtp";

    /// <summary>Repeat the run and report the median by rate.</summary>
    public int Runs { get; private set; } = 1;

    /// <summary><c>inserts</c>: how many connections insert at once.</summary>
    public int Connections { get; private set; } = 16;

    /// <summary><c>inserts</c>: the priorities of the rows inserted, each measured on its own.</summary>
    public IReadOnlyList<string> InsertPriorities { get; private set; } = ["urgent", "normal"];

    /// <summary>
    /// <c>run</c>: after each of our runs, the same run with the original experiment's consumer
    /// (tests/Notifications.Baseline); the report gives "ours / original" of the median rates.
    /// </summary>
    public bool Baseline { get; private set; }

    /// <summary>The original's NotificationSenders per consumer process (its largest run had 192).</summary>
    public int BaselineHandlers { get; private set; } = 192;

    /// <summary>The original's BasicQos prefetch per sender's channel.</summary>
    public int BaselinePrefetch { get; private set; } = 100;

    /// <summary>
    /// Seed templated rows (<see cref="BenchTemplate"/>: name and data, rendered by the consumer at send time)
    /// instead of prepared subjects and bodies, for the cost of rendering in the same session.
    /// </summary>
    public bool Template { get; private set; }

    /// <summary>Which bench template templated rows name: the order confirmation, or with <c>--template-plain</c> the plain one.</summary>
    public string TemplateName { get; private set; } = BenchTemplate.Name;

    /// <summary>Also measure the stage ceilings (broker, DB claim, SMTP) in the same invocation.</summary>
    public bool Ceilings { get; private set; }

    public TimeSpan CeilingDuration { get; private set; } = TimeSpan.FromSeconds(10);

    /// <summary>Latency mode: notifications inserted per second.</summary>
    public int Rate { get; private set; } = 1000;

    /// <summary>Priority mode: urgent notifications inserted per second while the bulk backlog drains.</summary>
    public int UrgentRate { get; private set; } = 20;

    /// <summary>
    /// Priority mode: where the urgent rows go — <c>email</c> (the run's SMTP server) or <c>live</c> (apps connected to
    /// <c>--gateways</c> gateways started for the run, <c>--clients</c> of them).
    /// </summary>
    public string UrgentChannel { get; private set; } = NotificationChannels.Email;

    public int SmtpPort { get; private set; } = 2640;

    /// <summary>Where the rows go out: <c>email</c> (SMTP), or <c>webhook</c> / <c>push</c> to the harness's receiver process.</summary>
    public string Channel { get; private set; } = NotificationChannels.Email;

    /// <summary>Push rows' provider: <c>fcm</c>, <c>apns</c>, or <c>both</c> (alternate rows).</summary>
    public string PushProviders { get; private set; } = "both";

    /// <summary>The receiver's port (push: FCM on it, APNs on the next); the receiver's ceiling uses the two after.</summary>
    public int ReceiverPort { get; private set; } = 2660;

    /// <summary><c>receiver webhook</c>: the secret to verify with (<c>whsec_...</c>); a new one when not given.</summary>
    public string? Secret { get; private set; }

    /// <summary><c>receiver push</c>: the directory of the key files to trust (<see cref="PushKeyFiles"/>); new keys when not given.</summary>
    public string? Keys { get; private set; }

    /// <summary><c>receiver push</c>: also keep each delivery's first arrival (<c>GET /_receiver/arrivals</c>), for <c>fanout</c>.</summary>
    public bool Arrivals { get; private set; }

    /// <summary>
    /// (run, sweep; email) An endpoint at a webhook receiver process on <see cref="ReceiverPort"/> subscribed to
    /// <c>notification.delivered</c> (docs/outcome-events.md): each email's delivery also writes its event.
    /// </summary>
    public bool OutcomeEvents { get; private set; }

    /// <summary>The <c>fanout</c> mode's options (registry size, page size, <c>--single</c>).</summary>
    public FanOutBenchOptions FanOut { get; } = new();

    /// <summary>The <c>live</c> mode's options (clients, gateways).</summary>
    public LiveBenchOptions Live { get; } = new();

    public string Queue { get; private set; } = "bench";

    public string Output { get; private set; } = ".run/bench";

    public string Label { get; private set; } = "";

    /// <summary>Extra environment for every worker process (<c>--env KEY=VALUE</c>, repeatable).</summary>
    public Dictionary<string, string> WorkerEnvironment { get; } = new(StringComparer.Ordinal);

    public static HarnessOptions Parse(string[] args)
    {
        var options = new HarnessOptions();
        int i = 0;
        if (args.Length > 0 && !args[0].StartsWith("--", StringComparison.Ordinal))
        {
            options.Mode = args[0];
            i = 1;
        }

        if (options.Mode == "receiver" && args.Length > 1 && !args[1].StartsWith("--", StringComparison.Ordinal))
        {
            options.Channel = args[1];
            i = 2;
        }

        for (; i < args.Length; i++)
        {
            string key = args[i];
            if (key == "--ceilings")
            {
                options.Ceilings = true;
                continue;
            }

            if (key == "--template")
            {
                options.Template = true;
                continue;
            }

            if (key == "--template-plain")
            {
                options.Template = true;
                options.TemplateName = BenchTemplate.PlainName;
                continue;
            }

            if (key == "--baseline")
            {
                options.Baseline = true;
                continue;
            }

            if (key == "--single")
            {
                options.FanOut.SetSingle(args);
                continue;
            }

            if (key == "--outcome-events")
            {
                options.OutcomeEvents = true;
                continue;
            }

            if (key == "--arrivals")
            {
                options.Arrivals = true;
                continue;
            }

            if (i + 1 >= args.Length)
            {
                throw new ArgumentException($"{key} needs a value");
            }

            options.Set(key, args[++i]);
        }

        if (options.Baseline && (options.Mode != "run" || options.Sender != "smtp"))
        {
            throw new ArgumentException("--baseline belongs to the run mode with --sender smtp (the original sends real e-mail)");
        }

        if (options.Template && (options.Baseline || options.Mode is not ("run" or "sweep")))
        {
            throw new ArgumentException("--template belongs to the run and sweep modes, without --baseline (the original consumer renders no templates)");
        }

        if (options.OutcomeEvents && (options.Baseline || options.Mode is not ("run" or "sweep") || options.Channel != NotificationChannels.Email))
        {
            throw new ArgumentException("--outcome-events belongs to the run and sweep modes with --channel email, without --baseline");
        }

        options.CheckChannel();
        if (options.UrgentConsumers > 0 && options.Baseline)
        {
            throw new ArgumentException("--urgent-consumers: the original experiment's consumer has no urgent lane (no --baseline)");
        }

        options.CheckFanOut(args);
        options.CheckLive(args);
        return options.Mode is "run" or "sweep" or "latency" or "ceilings" or "priority" or "receiver" or "inserts" or "fanout" or "live" or "live-clients" or "console-ops"
            ? options
            : throw new ArgumentException($"unknown mode '{options.Mode}' (run, sweep, latency, ceilings, priority, receiver, inserts, fanout, live, console-ops)");
    }

    // live's own options belong to it.
    private void CheckLive(string[] args)
    {
        if (UrgentChannel != NotificationChannels.Email && Mode != "priority")
        {
            throw new ArgumentException("--urgent-channel belongs to the priority mode");
        }

        if (Mode is "live" or "live-clients")
        {
            Live.Check(this);
        }
        else if (Mode == "priority" && UrgentChannel == NotificationChannels.Live)
        {
            // The urgent rows' apps: clients in the harness's own process, on --gateways gateways.
            if (args.Any(a => a is "--ack-sample" or "--storm-within" or "--storm-at" or "--broadcast"))
            {
                throw new ArgumentException("--ack-sample, --storm-within, --storm-at and --broadcast belong to the live mode");
            }

            int perProcess = LiveBenchOptions.ClientsPerProcess(ProcStat.OpenFilesLimit());
            if (Live.Gateways > Live.Clients || Live.Clients > perProcess)
            {
                throw new ArgumentException(string.Create(CultureInfo.InvariantCulture,
                    $"priority --urgent-channel live: --clients must fit one process's open files ({perProcess:N0} here) and be at least --gateways"));
            }
        }
        else if (args.Any(a => a is "--clients" or "--gateways" or "--gateway-port" or "--ack-sample" or "--storm-within" or "--storm-at" or "--broadcast"))
        {
            throw new ArgumentException("--clients, --gateways, --gateway-port, --ack-sample, --storm-within, --storm-at and --broadcast belong to the live mode "
                + "(--clients, --gateways and --gateway-port also to priority --urgent-channel live)");
        }
    }

    // fanout's own options belong to it; --single's steady flow is 200 rows a second unless --rate says otherwise.
    private void CheckFanOut(string[] args)
    {
        if (Mode != "fanout")
        {
            if (FanOut.Single || args.Any(a => a is "--subscribers" or "--devices-per-subscriber" or "--page-size" or "--timeout"))
            {
                throw new ArgumentException("--subscribers, --devices-per-subscriber, --page-size, --timeout and --single belong to the fanout mode");
            }

            if (Arrivals && !(Mode == "receiver" && Channel == NotificationChannels.Push))
            {
                throw new ArgumentException("--arrivals belongs to receiver push (the fan-out benchmark's count per notification and device)");
            }

            return;
        }

        if (FanOut.Single && !args.Contains("--rate"))
        {
            Rate = 200;
        }

        FanOut.Check(this);
    }

    // The HTTP channels have no baseline (the original sent e-mail), no templates and no steady-insert modes (yet).
    private void CheckChannel()
    {
        if (Mode == "receiver" && Channel is not (NotificationChannels.Webhook or NotificationChannels.Push))
        {
            throw new ArgumentException("receiver webhook|push: which receiving server to run");
        }

        if (Channel != NotificationChannels.Email && (Baseline || Template || SweepLatency is not null || Mode is not ("run" or "sweep" or "ceilings" or "receiver" or "fanout")))
        {
            throw new ArgumentException($"--channel {Channel} belongs to the run, sweep, ceilings and fanout modes, without --baseline, --template or --sweep-latency");
        }
    }

    private void Set(string key, string value)
    {
        switch (key)
        {
            case "--rows": Rows = Int(value); break;
            case "--duration": Duration = ParseDuration(value); break;
            case "--producers": Producers = Int(value); break;
            case "--consumers": Consumers = Int(value); break;
            case "--urgent-consumers": UrgentConsumers = Int(value) is >= 0 and <= 16 and int u ? u : throw new ArgumentException("--urgent-consumers must be 0-16"); break;
            case "--handlers": Handlers = Ints(value); break;
            case "--prefetch": Prefetch = Ints(value); break;
            case "--batch": Batch = Ints(value); break;
            case "--channels": Channels = Int(value); break;
            case "--envelope": Envelope = Ints(value).All(e => e is >= 1 and <= 10_000) ? Ints(value) : throw new ArgumentException("--envelope: sizes 1-10000"); break;
            case "--sweep-latency": SweepLatency = ParseDuration(value); break;
            case "--latency-warmup": LatencyWarmup = ParseDuration(value); break;
            case "--inflight": InFlight = Int(value) is > 0 and int f ? f : throw new ArgumentException("--inflight must be positive"); break;
            case "--mode": DeliveryMode = value; break;
            case "--sender": Sender = value is "smtp" or "simulated" ? value : throw new ArgumentException("--sender smtp|simulated"); break;
            case "--runs": Runs = Int(value); break;
            case "--priorities": InsertPriorities = value.Split(',').All(p => p is "urgent" or "normal" or "bulk") ? value.Split(',') : throw new ArgumentException("--priorities: a comma list of urgent, normal, bulk"); break;
            case "--connections": Connections = Int(value) is > 0 and <= 190 and int n ? n : throw new ArgumentException("--connections must be 1-190"); break;
            case "--baseline-handlers": BaselineHandlers = Int(value) is > 0 and int h ? h : throw new ArgumentException("--baseline-handlers must be 1 or more"); break;
            case "--baseline-prefetch": BaselinePrefetch = Int(value) is > 0 and <= ushort.MaxValue and int q ? q : throw new ArgumentException("--baseline-prefetch must be 1-65535"); break;
            case "--ceiling-duration": CeilingDuration = ParseDuration(value); break;
            case "--rate": Rate = Int(value); break;
            case "--urgent-rate": UrgentRate = Int(value) is > 0 and <= 1000 and int r ? r : throw new ArgumentException("--urgent-rate must be 1-1000 per second"); break;
            case "--urgent-channel": UrgentChannel = value is NotificationChannels.Email or NotificationChannels.Live ? value : throw new ArgumentException("--urgent-channel email|live"); break;
            case "--smtp-port": SmtpPort = Int(value); break;
            case "--channel": Channel = NotificationChannels.IsKnown(value) ? value : throw new ArgumentException("--channel email|webhook|push"); break;
            case "--push-provider": PushProviders = value is "fcm" or "apns" or "both" ? value : throw new ArgumentException("--push-provider fcm|apns|both"); break;
            case "--receiver-port": ReceiverPort = Int(value) is > 0 and < 65532 and int p ? p : throw new ArgumentException("--receiver-port must be 1-65531"); break;
            case "--secret": Secret = value.StartsWith("whsec_", StringComparison.Ordinal) ? value : throw new ArgumentException("--secret whsec_<base64>"); break;
            case "--keys": Keys = value; break;
            case "--queue": Queue = value; break;
            case "--out": Output = value; break;
            case "--label": Label = value; break;
            case "--env":
                int eq = value.IndexOf('=', StringComparison.Ordinal);
                WorkerEnvironment[value[..eq]] = value[(eq + 1)..];
                break;
            default:
                if (!FanOut.TrySet(key, value) && !Live.TrySet(key, value))
                {
                    throw new ArgumentException($"unknown option {key}");
                }

                break;
        }
    }

    /// <summary>"60s", "500ms", "2m" or a TimeSpan ("00:01:00").</summary>
    public static TimeSpan ParseDuration(string value) => value switch
    {
        _ when value.EndsWith("ms", StringComparison.Ordinal) => TimeSpan.FromMilliseconds(double.Parse(value[..^2], CultureInfo.InvariantCulture)),
        _ when value.EndsWith('s') => TimeSpan.FromSeconds(double.Parse(value[..^1], CultureInfo.InvariantCulture)),
        _ when value.EndsWith('m') => TimeSpan.FromMinutes(double.Parse(value[..^1], CultureInfo.InvariantCulture)),
        _ => TimeSpan.Parse(value, CultureInfo.InvariantCulture),
    };

    private static int Int(string value) => int.Parse(value.Replace("_", "", StringComparison.Ordinal), CultureInfo.InvariantCulture);

    private static int[] Ints(string value) => value.Split(',').Select(Int).ToArray();
}
