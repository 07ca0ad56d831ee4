<?php
/**
 * Licence: the PHP client of the licence verification service, in one file, with no dependency,
 * for PHP 5.6 and every later version.
 *
 *     require_once __DIR__ . '/Licence.php';
 *     $licence = new Licence($cleDuClient, '/chemin/hors/deploiement/cache-licence');
 *     if (!$licence->valide()) { afficher($licence->message()); return; }
 *     if ($licence->essai()) { afficherDiscretement($licence->message()); }
 *
 * It follows the client rules of docs/protocol.md#clients in the licence service repository,
 * exactly as the TypeScript client does: the same vectors (packages/vectors) prove both. It
 * verifies every answer (Ed25519 over the canonical form of `donnees`, protocol.md#canonical-form)
 * with sodium when the extension is there (PHP 7.2+), else with the pure-PHP RFC 8032 verifier at
 * the end of this file.
 *
 * Set PRODUIT, CLES_PUBLIQUES and URL below once, or pass them as options. README.md lists every
 * option. Comments below cite its sections in the short form protocol.md#...; comments are in
 * English, names in French, public and private alike. English names are only those of what the
 * code handles: curl, JSON, the Retry-After header, and the keys of the cache record and of
 * etape()'s arrays (envelope, failures, retryAt, state, runs...), which are the cache file's and
 * the vectors' format, shared with the TypeScript client.
 */
class Licence
{
    // ---------------------------------------------------------------------------------------------
    // To set once by the product's author (or pass the options of the same names).
    // ---------------------------------------------------------------------------------------------

    /** Your product's id on the service ([a-z0-9._-], 1 to 64 characters, protocol.md#product-and-nonce). */
    const PRODUIT = '';

    /**
     * The service's public key(s), base64 of 32 bytes, separated by spaces or commas. Give two
     * during a key rotation (protocol.md#signature): a verdict signed by either is accepted.
     */
    const CLES_PUBLIQUES = '';

    /** The service's base address, e.g. https://licence.example.com (the client adds /api/licence). */
    const URL = '';

    // ---------------------------------------------------------------------------------------------

    const VERSION = '1.0.0';

    /** protocol.md#limits: client HTTP timeout, seconds. */
    const DELAI = 6;
    /**
     * protocol.md#refresh-lock: a lock held longer than one call can last (the timeout plus this
     * margin, seconds) is stale, whatever flock says. The TypeScript client's LOCK_MARGIN_MS
     * (packages/client/src/licence.ts): keep the two equal.
     */
    const MARGE_VERROU = 10;
    /** protocol.md#back-off: the first back-off after a failed call, seconds (5 min, doubling). */
    const RECUL_BASE = 300;
    /** protocol.md#back-off: the longest back-off, seconds (1 h); also the cap of Retry-After. */
    const RECUL_MAX = 3600;
    /** The shortest wait a Retry-After may ask for ("0" must not mean "call again in a loop"). */
    const ATTENTE_MIN = 1;
    /** 2^53 - 1: the integers that JavaScript and PHP spell alike (protocol.md#canonical-form). */
    const ENTIER_MAX = 9007199254740991;
    /** Canonical form: deeper nesting is refused, as core does. */
    const PROFONDEUR_MAX = 32;
    /** protocol.md#key-normalisation: a raw key longer than this (UTF-16 units, as JavaScript counts) is refused. */
    const CLE_MAX = 1024;
    /** core normalize-host.ts: url length bound (UTF-16 units), DNS label and name lengths. */
    const URL_MAX = 2048;
    const ETIQUETTE_MAX = 63;
    const HOTE_MAX = 253;
    /** A cache file larger than this is not ours: it is ignored rather than parsed. */
    const CACHE_MAX_OCTETS = 65536;
    /**
     * protocol.md#staging-hosts: the built-in staging patterns of well-known hosting providers,
     * core's BUILTIN_STAGING_PATTERNS (their sources are in protocol.md); staging.json pins both.
     */
    const MOTIFS_DE_STAGING = '*.wpengine.com,*.wpenginepowered.com,*.kinsta.cloud,*.kinsta.com,dev-*.pantheonsite.io,test-*.pantheonsite.io,*.flywheelstaging.com,staging-*.wpcomstaging.com,*.mystagingwebsite.com,*.myftpupload.com,*.temp.domains,*.server.servebolt.cloud,*.stackstaging.com,*.cpanel.site';

    /**
     * Forces the pure-PHP Ed25519 verifier even where sodium exists (tests and benchmark). The
     * option `verification` => 'php' does the same for one instance.
     */
    public static $forcerPhp = false;

    private $cle;
    /**
     * Why the key handed cannot be used ("sans_cle" or "cle_invalide"), or null. The buyer's key
     * is the buyer's input, never a reason to throw (protocol.md#no-usable-key).
     */
    private $probleme;
    private $dossier;
    private $produit;
    private $cles;
    private $url;
    private $hoteBrut;
    private $hote;
    private $langue;
    private $agent;
    private $delai;
    private $horloge;
    private $transport;
    private $verification;

    /** array('etat' => ..., 'donnees' => stdClass, 'marche' => bool) once valide() ran. */
    private $resultat = null;

    /**
     * Why this instance cannot check (a host this PHP cannot normalise), or null. Set by the
     * constructor for faults of the environment, which must never throw (protocol.md#clients).
     */
    private $panne = null;

    /** Whether this instance already wrote its one error_log line. */
    private $signale = false;

    /**
     * Cache records that could not be written (a read-only or full disk), by file: the verdict and
     * the back-off are kept in memory for the rest of this process (protocol.md#cache), so a
     * second instance in the same request neither calls again nor loses a verdict.
     */
    private static $memoire = array();

    /**
     * @param mixed  $cle          the buyer's licence key, as entered (spaces and dashes are fine);
     *                             missing, empty or not a key never throws: valide() is then false
     *                             in state "no_key", without a call
     * @param string $dossierCache a writable folder that deployments do not wipe
     * @param array  $options      produit, cles_publiques, url, hote, langue, user_agent, delai,
     *                             horloge, transport, verification (README.md)
     * @throws InvalidArgumentException on a configuration mistake (never holding the key itself)
     */
    public function __construct($cle, $dossierCache, $options = array())
    {
        if (!is_array($options)) {
            throw new InvalidArgumentException('options: expected an array, got ' . self::nomType($options));
        }
        $connues = array('produit', 'cles_publiques', 'url', 'hote', 'langue', 'user_agent', 'delai', 'horloge', 'transport', 'verification');
        foreach ($options as $nom => $valeur) {
            if (!in_array($nom, $connues, true)) {
                throw new InvalidArgumentException('options: unknown option "' . $nom . '" (known: ' . implode(', ', $connues) . ')');
            }
        }
        // What get_option() gives before the buyer saves a key (false, ""), or what they typed, is
        // the buyer's input: it never throws (protocol.md#no-usable-key).
        $this->probleme = self::problemeDeCle($cle);
        $this->cle = $this->probleme === null ? self::normaliserCle($cle) : '';

        if (!is_string($dossierCache) || $dossierCache === '') {
            throw new InvalidArgumentException('dossierCache: expected the path of a writable folder, got ' . self::nomType($dossierCache));
        }
        // A folder that cannot be created or written is the host's fault, not the developer's: it
        // never throws (protocol.md#cache: "never stops the product"); writes then fail, are
        // logged once, and the record is kept in memory (ecrireCache). Without a usable key, no
        // cache is used: the folder is left alone.
        if ($this->probleme === null && !@is_dir($dossierCache)) {
            @mkdir($dossierCache, 0700, true);
        }
        $this->dossier = rtrim($dossierCache, '/\\');

        $produit = array_key_exists('produit', $options) ? $options['produit'] : self::PRODUIT;
        if (!is_string($produit) || !preg_match('/^[a-z0-9._-]{1,64}$/D', $produit)) {
            throw new InvalidArgumentException('produit: expected [a-z0-9._-]{1,64} (set Licence::PRODUIT or the produit option), got ' . self::decrire($produit));
        }
        $this->produit = $produit;

        $cles = array_key_exists('cles_publiques', $options) ? $options['cles_publiques'] : self::CLES_PUBLIQUES;
        $this->cles = self::lireClesPubliques($cles);

        $url = array_key_exists('url', $options) ? $options['url'] : self::URL;
        if (!is_string($url) || !preg_match('~^https?://[^\s/?#]+(/[^\s?#]*)?$~Di', $url)) {
            throw new InvalidArgumentException('url: expected the service address, http(s)://host[/path] (set Licence::URL or the url option), got ' . self::decrire($url));
        }
        $this->url = self::pointDAcces($url);

        // The service normalises the very string we send; we normalise it the same way
        // (protocol.md#host-normalisation) and require its answer to name that host
        // (protocol.md#signature).
        $this->hote = null;
        if (array_key_exists('hote', $options)) {
            $hote = $options['hote'];
            try {
                $this->hote = self::normaliserHote($hote);
            } catch (InvalidArgumentException $erreur) {
                if (!self::fauteDIntl($erreur)) {
                    // A malformed address in the options is the developer's mistake. Same fixed
                    // message as the service's 400, named after the option.
                    throw new InvalidArgumentException('hote: ' . substr($erreur->getMessage(), strlen('url: ')));
                }
                // A well-formed Unicode address on a PHP without intl is the host's fault.
                $this->panne = 'the hote option is a non-ASCII host and this PHP has no intl extension (idn_to_ascii): install php-intl, or give the site address in punycode (xn--)';
            }
        } else {
            $this->hote = $this->hoteDeLaRequete();
            $hote = $this->hoteBrut;
        }
        $this->hoteBrut = $hote;

        $langue = array_key_exists('langue', $options) ? $options['langue'] : 'fr';
        self::verifierLangue($langue);
        $this->langue = $langue;

        $agent = array_key_exists('user_agent', $options) ? $options['user_agent'] : $this->produit . ' (licence-php/' . self::VERSION . ')';
        if (!is_string($agent) || !preg_match('/^[\x21-\x7e][\x20-\x7e]{0,254}$/D', $agent)) {
            throw new InvalidArgumentException('user_agent: expected 1 to 255 printable ASCII characters naming the product, got ' . self::decrire($agent));
        }
        $this->agent = $agent;

        $delai = array_key_exists('delai', $options) ? $options['delai'] : self::DELAI;
        if (!(is_int($delai) || is_float($delai)) || !($delai > 0) || $delai > 60) {
            throw new InvalidArgumentException('delai: expected a number of seconds in ]0, 60], got ' . self::decrire($delai));
        }
        $this->delai = $delai;

        $horloge = array_key_exists('horloge', $options) ? $options['horloge'] : null;
        if ($horloge !== null && !is_callable($horloge)) {
            throw new InvalidArgumentException('horloge: expected a callable returning seconds since the epoch, got ' . self::nomType($horloge));
        }
        $this->horloge = $horloge;

        $this->transport = self::optionTransport($options);
        $this->verification = self::optionVerification($options);
    }

    /**
     * Without the hote option: the request's HTTP_HOST, else SERVER_NAME, normalised; sets
     * hoteBrut. Their content comes from the environment (a visitor controls Host), so a value
     * that cannot be normalised (malformed, or Unicode without intl) never throws: the next one is
     * tried, and with none usable the instance runs `lapsed` and logs why
     * (protocol.md#hosts-in-clients). Only their absence (the command line) is the developer's
     * mistake.
     */
    private function hoteDeLaRequete()
    {
        $trouve = false;
        $intl = false;
        foreach (array('HTTP_HOST', 'SERVER_NAME') as $nom) {
            if (!isset($_SERVER[$nom]) || !is_string($_SERVER[$nom]) || $_SERVER[$nom] === '') {
                continue;
            }
            $trouve = true;
            try {
                $hote = self::normaliserHote($_SERVER[$nom]);
                $this->hoteBrut = $_SERVER[$nom];
                return $hote;
            } catch (InvalidArgumentException $erreur) {
                $intl = $intl || self::fauteDIntl($erreur);
            }
        }
        if (!$trouve) {
            throw new InvalidArgumentException('hote: no HTTP_HOST or SERVER_NAME here (command line?): pass the site address as the hote option');
        }
        // The value itself is not logged: a visitor wrote it (log injection).
        $this->hoteBrut = '';
        $this->panne = $intl
            ? 'the request\'s host is non-ASCII and this PHP has no intl extension (idn_to_ascii): install php-intl, or pass the site address as the hote option'
            : 'the request\'s host (HTTP_HOST, SERVER_NAME) is not a valid host name: pass the site address as the hote option';
        return null;
    }

    /** Whether normaliserHote() refused a host only because intl is missing (domaineVersAscii). */
    private static function fauteDIntl($erreur)
    {
        return strpos($erreur->getMessage(), 'needs the intl extension') !== false;
    }

    /** "curl" or "flux": the transport option, "auto" choosing curl where it is loaded. */
    private static function optionTransport($options)
    {
        $transport = array_key_exists('transport', $options) ? $options['transport'] : 'auto';
        if (!in_array($transport, array('auto', 'curl', 'flux'), true)) {
            throw new InvalidArgumentException('transport: expected "auto", "curl" or "flux", got ' . self::decrire($transport));
        }
        if ($transport === 'curl' && !function_exists('curl_init')) {
            throw new InvalidArgumentException('transport: "curl" asked but the curl extension is not loaded');
        }
        return $transport === 'auto' ? (function_exists('curl_init') ? 'curl' : 'flux') : $transport;
    }

    /** "sodium", "php", or null for "auto" (sodium unless Licence::$forcerPhp, decided at each check). */
    private static function optionVerification($options)
    {
        $verification = array_key_exists('verification', $options) ? $options['verification'] : 'auto';
        if (!in_array($verification, array('auto', 'sodium', 'php'), true)) {
            throw new InvalidArgumentException('verification: expected "auto", "sodium" or "php", got ' . self::decrire($verification));
        }
        if ($verification === 'sodium' && !self::sodiumDisponible()) {
            throw new InvalidArgumentException('verification: "sodium" asked but the sodium extension is not available');
        }
        return $verification === 'auto' ? null : $verification;
    }

    // ---------------------------------------------------------------------------------------------
    // The API of protocol.md#clients, plus two readers.
    // ---------------------------------------------------------------------------------------------

    /**
     * True when the product may run on this host. A signed refusal returns false, and so does the
     * absence of a usable key (`no_key`); a service that cannot be reached never does
     * (protocol.md#overview). The answer is kept by the instance: call it once per request
     * (protocol.md#recommendations).
     *
     * @return bool
     */
    public function valide()
    {
        if ($this->resultat === null) {
            // A wrong clock option is the caller's bug: it throws. Nothing else may escape.
            $maintenant = $this->maintenant();
            if ($this->probleme !== null) {
                // protocol.md#no-usable-key: nothing to ask with, so no call and no file. Not a
                // refusal: the product is not licensed yet, and says so through message().
                $this->signaler($this->probleme === 'sans_cle'
                    ? 'no licence key entered yet: valide() is false until the buyer enters one'
                    : 'what was entered is not a licence key (25 letters and digits): valide() is false until the buyer corrects it');
                $attendu = array('hote' => $this->hote === null ? '' : $this->hote, 'produit' => $this->produit);
                $this->resultat = $this->appliquer(self::sansCle($this->probleme, $maintenant, $attendu), null);
                return $this->resultat['marche'];
            }
            if ($this->panne !== null) {
                // No host to check against: no answer could be accepted, so no call is made and
                // no file is used; the product runs (protocol.md#states: lapsed).
                $this->signaler($this->panne);
                $etape = self::repli(null, $maintenant, array('hote' => '', 'produit' => $this->produit), null);
                $this->resultat = $this->appliquer($etape, null);
                return $this->resultat['marche'];
            }
            $attendu = array('hote' => $this->hote, 'produit' => $this->produit);
            try {
                $this->resultat = $this->decider($maintenant, $attendu);
            } catch (Exception $erreur) {
                $this->resultat = $this->apresErreur($erreur, $maintenant, $attendu);
            } catch (Throwable $erreur) {
                $this->resultat = $this->apresErreur($erreur, $maintenant, $attendu);
            }
        }
        return $this->resultat['marche'];
    }

    /**
     * True on a development key or a test/staging host (protocol.md#test-hosts): show a discreet
     * notice.
     *
     * @return bool
     */
    public function essai()
    {
        $this->valide();
        return $this->resultat['donnees']->essai === true;
    }

    /**
     * A sentence for the buyer, in French or English, naming the domains and dating the event.
     * Plain text: escape it for HTML (htmlspecialchars) where you print it.
     *
     * @param string|null $langue "fr" or "en"; default: the langue option
     * @return string
     */
    public function message($langue = null)
    {
        $this->valide();
        return self::phrase($this->resultat['donnees'], $this->resultat['etat'], $langue === null ? $this->langue : $langue);
    }

    /**
     * Where the verdict came from: "fresh" (cache, before revalider), "refreshed" (this call),
     * "grace" (cache kept: the service did not answer usefully, or another process is refreshing
     * it), "lapsed" (no usable verdict: motif "reseau", the product runs) or "no_key" (no usable
     * key: motif "sans_cle" or "cle_invalide", valide() is false, nothing was called).
     *
     * @return string
     */
    public function etat()
    {
        $this->valide();
        return $this->resultat['etat'];
    }

    /**
     * The verdict acted on, as an associative array (the signed `donnees`, or the client's own
     * `reseau` verdict when lapsed).
     *
     * @return array
     */
    public function verdict()
    {
        $this->valide();
        return json_decode(json_encode($this->resultat['donnees']), true);
    }

    /**
     * The normalised host this instance checks (protocol.md#host-normalisation), or null when the
     * request's host could not be normalised here (then valide() runs `lapsed` and logs why).
     */
    public function hote()
    {
        return $this->hote;
    }

    // ---------------------------------------------------------------------------------------------
    // The I/O around the pure step: cache file, lock, HTTP.
    // ---------------------------------------------------------------------------------------------

    private function decider($maintenant, $attendu)
    {
        $fichier = $this->fichierCache();
        $lu = $this->lireCache($fichier);
        $etape = self::etape($maintenant, $lu, null, $this->cles, $attendu, $this->verification);
        if ($etape['action'] === 'use') {
            return $this->appliquer($etape, $fichier);
        }
        if ($lu !== null && self::lireEnregistrement($lu, $this->cles, $attendu, $this->verification) === null) {
            // protocol.md#cache: a damaged or foreign file counts as no file at all; say so once,
            // since it costs a call (or hides a verdict) until it is replaced.
            $this->signaler('the cache file ' . substr($fichier, strlen($this->dossier) + 1) . ' is damaged or not for this site (truncated, garbage, bad signature or wrong types): ignored');
        }

        // protocol.md#refresh-lock: one refresher at a time. Held by another process: keep the
        // cached verdict meanwhile (grace, or lapsed when there is none), and write nothing.
        $verrou = $this->prendreVerrou($fichier . '.lock');
        if ($verrou === null) {
            return $this->appliquer(self::sansAppel($maintenant, $this->lireCache($fichier), $this->cles, $attendu, $this->verification), null);
        }
        try {
            // The file may have been refreshed between our first read and the lock.
            $cache = $this->lireCache($fichier);
            $etape = self::etape($maintenant, $cache, null, $this->cles, $attendu, $this->verification);
            if ($etape['action'] === 'call') {
                $nonce = self::nouveauNonce();
                $attendu['nonce'] = $nonce;
                $issue = $this->appeler($nonce);
                $etape = self::etape($maintenant, $cache, $issue, $this->cles, $attendu, $this->verification);
            }
            $resultat = $this->appliquer($etape, $fichier);
        } catch (Exception $erreur) {
            $resultat = $this->apresErreur($erreur, $maintenant, $attendu);
        } catch (Throwable $erreur) {
            $resultat = $this->apresErreur($erreur, $maintenant, $attendu);
        }
        if ($verrou !== true) {
            @flock($verrou, LOCK_UN);
            fclose($verrou);
        }
        return $resultat;
    }

    /**
     * The refresh lock at $chemin (protocol.md#refresh-lock): an open handle that holds its flock,
     * true when the call may be made without one (a stale lock taken over, or no lock possible
     * here), or null when another process holds it.
     *
     * flock is released by the system when a process dies, but it can lie: in php-wasm 8.2 to 8.5
     * (WordPress Playground), on a folder mounted from the host, after one failed stream request
     * of the process flock answers "held by someone else" for every file, for good. Believed, the
     * site would never refresh, and a revoked key would run on its grace. So, as in the TypeScript
     * client, a lock is believed only while it is younger than one call can last: its holder writes
     * the file when it takes it (its mtime says since when), and a lock held longer than the
     * timeout plus MARGE_VERROU is stale whatever flock says. Taking the lock and taking a stale
     * one over both happen under `<lock>.takeover`, created exclusively: a process never judges a
     * lock between another's flock and that one's mark, so exactly one process calls.
     */
    private function prendreVerrou($chemin)
    {
        // Shared hosts may list flock in disable_functions (PHP 8: it does not exist at all):
        // without it there is no lock, and the call is made (protocol.md#cache: only the
        // coordination between processes is lost).
        if (!function_exists('flock')) {
            return true;
        }
        $garde = $this->prendreGarde($chemin . '.takeover');
        if ($garde === null) {
            return null;
        }
        // Under the takeover file nobody else takes the lock: a lock file that was not there
        // before is held by no one, whatever flock says below.
        $nouveau = !@is_file($chemin);
        $verrou = @fopen($chemin, 'c');
        if ($verrou === false) {
            // A lock that cannot be opened (a read-only folder) does not stop the call: the cache
            // simply cannot be written either.
            self::rendreGarde($garde, $chemin . '.takeover');
            return true;
        }
        self::restreindre($chemin);
        $bloque = 0;
        if (@flock($verrou, LOCK_EX | LOCK_NB, $bloque)) {
            self::marquer($verrou);
            self::rendreGarde($garde, $chemin . '.takeover');
            return $verrou;
        }
        if (!$bloque) {
            // A file system without locks (some network or virtual ones, php-wasm before 8.2):
            // taken as "held" it would never let any process call. Call without the lock instead
            // (protocol.md#cache). Not logged: nothing fails, and such a host would log it at every call.
            $libre = true;
        } else {
            // "Held": believed while the mark is younger than a call can last (another process is
            // calling). Older, its holder is hung or flock lies: take it over, and mark it.
            $age = $this->ageVerrou($chemin);
            $libre = $nouveau || $age === null || $this->plusQuUnAppel($age);
            if ($libre) {
                self::marquer($verrou);
            }
        }
        fclose($verrou);
        self::rendreGarde($garde, $chemin . '.takeover');
        return $libre ? true : null;
    }

    /**
     * `<lock>.takeover`, created exclusively (fopen 'x': O_EXCL), or null when another process has
     * it (it is taking or judging the lock: this one leaves it to that one). One left by a process
     * that died there goes stale by age, as a lock does: it is removed, and the next process takes
     * it. A folder where it cannot be created at all (read-only) gives false: the lock is then
     * taken without it.
     */
    private function prendreGarde($garde)
    {
        $fichier = @fopen($garde, 'x');
        if ($fichier !== false) {
            return $fichier;
        }
        $age = $this->ageVerrou($garde);
        if ($age === null) {
            return false;
        }
        if ($this->plusQuUnAppel($age)) {
            @unlink($garde);
        }
        return null;
    }

    private static function rendreGarde($fichier, $garde)
    {
        if ($fichier !== false) {
            fclose($fichier);
            @unlink($garde);
        }
    }

    /** Whether $age seconds is longer than one call can last: a lock or takeover file that old is stale. */
    private function plusQuUnAppel($age)
    {
        return $age > $this->delai + self::MARGE_VERROU;
    }

    /**
     * Seconds since the file at $chemin was last written, on the system's real clock (locks are
     * about processes, not verdicts: never the `horloge` option), or null when it cannot be read.
     */
    private function ageVerrou($chemin)
    {
        clearstatcache(true, $chemin);
        $depuis = @filemtime($chemin);
        return $depuis === false ? null : time() - $depuis;
    }

    /** Writes the lock file, so that its mtime says since when it is held (protocol.md#refresh-lock). */
    private static function marquer($verrou)
    {
        @ftruncate($verrou, 0);
        @fwrite($verrou, (string) time());
        @fflush($verrou);
    }

    /**
     * A fault of ours (a bug, an unexpected PHP error) must neither stop a shop nor lift a cached
     * signed refusal: it is logged (without the key), and the cached verdict is used as if the
     * call had failed, nothing written; lapsed if even that fails.
     */
    private function apresErreur($erreur, $maintenant, $attendu)
    {
        self::journal('Licence: ' . get_class($erreur) . ': ' . $erreur->getMessage());
        unset($attendu['nonce']);
        try {
            return $this->appliquer(self::sansAppel($maintenant, $this->lireCache($this->fichierCache()), $this->cles, $attendu, $this->verification), null);
        } catch (Exception $autre) {
            self::journal('Licence: the cached verdict could not be read either: ' . $autre->getMessage());
        } catch (Throwable $autre) {
            self::journal('Licence: the cached verdict could not be read either: ' . $autre->getMessage());
        }
        return $this->appliquer(self::sansAppel($maintenant, null, $this->cles, $attendu, $this->verification), null);
    }

    private function appliquer($etape, $fichier)
    {
        if ($fichier !== null && $etape['store'] !== null) {
            $this->ecrireCache($fichier, $etape['store']);
        }
        return array('etat' => $etape['state'], 'donnees' => $etape['donnees'], 'marche' => $etape['runs']);
    }

    /** One error_log line; nothing where a host disabled error_log (disable_functions). */
    private static function journal($texte)
    {
        if (function_exists('error_log')) {
            @error_log($texte);
        }
    }

    /** Mode 0600, where chmod exists (a host may disable it; the umask then decides). */
    private static function restreindre($chemin)
    {
        if (function_exists('chmod')) {
            @chmod($chemin, 0600);
        }
    }

    /**
     * The one error_log line of this instance: what went wrong in its environment, never the key
     * (protocol.md#clients). Later faults of the same instance are not logged again, so a broken
     * host adds one line per request, not a flood.
     */
    private function signaler($texte)
    {
        if (!$this->signale) {
            $this->signale = true;
            self::journal('Licence (' . $this->produit . '): ' . $texte);
        }
    }

    private function maintenant()
    {
        if ($this->horloge === null) {
            return time();
        }
        $t = call_user_func($this->horloge);
        if (!self::estEntierSur($t) || $t < 0) {
            throw new InvalidArgumentException('horloge: expected a non-negative integer of seconds, got ' . self::decrire($t));
        }
        return $t;
    }

    /** protocol.md#cache: one file per (product, key, host); the name is a hash, never the key itself. */
    private function fichierCache()
    {
        $empreinte = hash('sha256', "licence-php/1\0" . $this->produit . "\0" . $this->cle . "\0" . $this->hote);
        return $this->dossier . DIRECTORY_SEPARATOR . 'licence-' . substr($empreinte, 0, 40) . '.json';
    }

    /** The parsed file, or null when there is none. Unreadable or garbage content is data, checked by etape(). */
    private function lireCache($fichier)
    {
        if (isset(self::$memoire[$fichier])) {
            // This process could not write its last record (protocol.md#cache): it is newer than
            // anything on disk.
            return json_decode(self::$memoire[$fichier]);
        }
        // Another process may have replaced the file since PHP last looked at it.
        clearstatcache(true, $fichier);
        if (!@is_file($fichier)) {
            return null;
        }
        $taille = @filesize($fichier);
        if ($taille === false || $taille > self::CACHE_MAX_OCTETS) {
            return false;
        }
        $texte = @file_get_contents($fichier);
        if ($texte === false || $texte === '') {
            return false;
        }
        // Anything but a JSON object (garbage, `null`, a list) is a damaged file, not "no file".
        $valeur = json_decode($texte);
        return $valeur instanceof stdClass ? $valeur : false;
    }

    /** protocol.md#cache: written atomically (a temporary file renamed over the old one), mode 0600. */
    private function ecrireCache($fichier, $enregistrement)
    {
        $texte = json_encode(array(
            'envelope' => $enregistrement['envelope'],
            'failures' => $enregistrement['failures'],
            'retryAt' => $enregistrement['retryAt'],
        ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        if ($texte === false) {
            self::journal('Licence: the cache record could not be encoded');
            return false;
        }
        // Until a write succeeds, this process keeps the record in memory (protocol.md#cache).
        self::$memoire[$fichier] = $texte;
        $temporaire = $fichier . '.' . bin2hex(self::octetsAleatoires(6)) . '.tmp';
        $h = @fopen($temporaire, 'x');
        if ($h === false) {
            $this->signaler('cannot write in the cache folder ' . $this->dossier . ' (missing, read-only or not a folder): the verdict is kept in memory for this request only');
            return false;
        }
        // chmod before any content is written: the umask may have made it world-readable.
        self::restreindre($temporaire);
        // A full disk makes these fail with a PHP notice (fwrite: "errno=28 No space left on
        // device"): silenced, and judged by the count written.
        $ecrit = @fwrite($h, $texte);
        $vide = @fflush($h);
        $ferme = @fclose($h);
        if ($ecrit !== strlen($texte) || !$vide || !$ferme || !@rename($temporaire, $fichier)) {
            @unlink($temporaire);
            $this->signaler('cannot write the cache file in ' . $this->dossier . ' (disk full, or the file cannot be replaced): the verdict is kept in memory for this request only');
            return false;
        }
        unset(self::$memoire[$fichier]);
        return true;
    }

    /**
     * One POST to the service (protocol.md#request): `cle`, `url`, `produit` and a fresh `nonce`
     * (protocol.md#product-and-nonce), a custom User-Agent (protocol.md#user-agent-filter: default
     * ones get 403), a 6 s timeout (protocol.md#limits). Returns the outcome etape() reads.
     */
    private function appeler($nonce)
    {
        $corps = json_encode(array('cle' => $this->cle, 'url' => $this->hoteBrut, 'produit' => $this->produit, 'nonce' => $nonce), JSON_UNESCAPED_SLASHES);
        if ($corps === false) {
            // The host option was not valid UTF-8; normaliserHote() already refused that, so this
            // is a bug, reported as a failed call.
            return array('type' => 'failure', 'reason' => 'network');
        }
        return $this->transport === 'curl' ? $this->appelerCurl($corps) : $this->appelerFlux($corps);
    }

    private function appelerCurl($corps)
    {
        if (!function_exists('curl_init')) {
            // The constructor only picks curl when it is loaded; this keeps the method honest alone.
            return array('type' => 'failure', 'reason' => 'network');
        }
        $retryAfter = null;
        $h = curl_init($this->url);
        $millisecondes = (int) ceil($this->delai * 1000);
        $options = array(
            CURLOPT_POST => true,
            CURLOPT_POSTFIELDS => $corps,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_HTTPHEADER => array('Content-Type: application/json', 'Accept: application/json', 'Expect:'),
            CURLOPT_USERAGENT => $this->agent,
            CURLOPT_FOLLOWLOCATION => false,
            // Sub-second timeouts need NOSIGNAL with the system resolver (libcurl docs).
            CURLOPT_NOSIGNAL => true,
            CURLOPT_CONNECTTIMEOUT_MS => $millisecondes,
            CURLOPT_TIMEOUT_MS => $millisecondes,
            CURLOPT_HEADERFUNCTION => function ($h, $ligne) use (&$retryAfter) {
                if (stripos($ligne, 'retry-after:') === 0) {
                    $retryAfter = trim(substr($ligne, 12), " \t\r\n");
                } elseif (strncmp($ligne, 'HTTP/', 5) === 0) {
                    // A new status line (100 Continue, then the answer) resets the headers.
                    $retryAfter = null;
                }
                return strlen($ligne);
            },
        );
        if (defined('CURLOPT_PROTOCOLS') && defined('CURLPROTO_HTTP') && defined('CURLPROTO_HTTPS')) {
            $options[constant('CURLOPT_PROTOCOLS')] = constant('CURLPROTO_HTTP') | constant('CURLPROTO_HTTPS');
        }
        curl_setopt_array($h, $options);
        $texte = curl_exec($h);
        $erreur = curl_errno($h);
        $statut = (int) curl_getinfo($h, CURLINFO_HTTP_CODE);
        if (PHP_VERSION_ID < 80000) {
            // A no-op since PHP 8.0 (the handle is freed with the object), deprecated in 8.5.
            curl_close($h);
        }
        if ($texte === false || $erreur !== 0 || $statut < 100) {
            // 28 is CURLE_OPERATION_TIMEDOUT.
            return array('type' => 'failure', 'reason' => $erreur === 28 ? 'timeout' : 'network');
        }
        return array('type' => 'response', 'status' => $statut, 'body' => self::lireJson($texte), 'retryAfter' => $retryAfter);
    }

    private function appelerFlux($corps)
    {
        if (!ini_get('allow_url_fopen')) {
            // No curl and no URL streams: the service cannot be called from this host. Every call
            // fails, which never blocks the product (lapsed, `reseau`), and says why in the log.
            $this->signaler('neither the curl extension nor allow_url_fopen is available: the licence service cannot be called');
            return array('type' => 'failure', 'reason' => 'network');
        }
        $contexte = stream_context_create(array('http' => array(
            'method' => 'POST',
            'header' => "Content-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\n",
            'user_agent' => $this->agent,
            'content' => $corps,
            // Applies to the connection and to each read (the stream wrapper has no total limit).
            'timeout' => (float) $this->delai,
            // Read the body of a 4xx/5xx too, without a PHP warning.
            'ignore_errors' => true,
            'follow_location' => 0,
            'max_redirects' => 1,
        )));
        $debut = microtime(true);
        $h = @fopen($this->url, 'rb', false, $contexte);
        if ($h === false) {
            $raison = microtime(true) - $debut >= $this->delai ? 'timeout' : 'network';
            return array('type' => 'failure', 'reason' => $raison);
        }
        // The response headers, from the stream itself (every PHP version; the magic
        // $http_response_header variable is deprecated in the newest ones).
        $meta = stream_get_meta_data($h);
        $entetes = isset($meta['wrapper_data']) && is_array($meta['wrapper_data']) ? $meta['wrapper_data'] : array();
        $texte = stream_get_contents($h);
        $meta = stream_get_meta_data($h);
        fclose($h);
        if (!empty($meta['timed_out'])) {
            return array('type' => 'failure', 'reason' => 'timeout');
        }
        $statut = 0;
        $retryAfter = null;
        foreach ($entetes as $ligne) {
            if (preg_match('~^HTTP/[0-9.]+\s+([0-9]{3})~', $ligne, $m)) {
                $statut = (int) $m[1];
                $retryAfter = null;
            } elseif (stripos($ligne, 'retry-after:') === 0) {
                $retryAfter = trim(substr($ligne, 12), " \t\r\n");
            }
        }
        if ($statut < 100 || $texte === false) {
            $raison = microtime(true) - $debut >= $this->delai ? 'timeout' : 'network';
            return array('type' => 'failure', 'reason' => $raison);
        }
        return array('type' => 'response', 'status' => $statut, 'body' => self::lireJson($texte), 'retryAfter' => $retryAfter);
    }

    /** A response body as data: objects stay objects so {} and [] stay apart (protocol.md#canonical-form). */
    private static function lireJson($texte)
    {
        if (!is_string($texte) || $texte === '') {
            return null;
        }
        return json_decode($texte);
    }

    private static function pointDAcces($url)
    {
        $url = rtrim($url, '/');
        if (preg_match('~/api/licen[cs]e$~D', $url)) {
            return $url;
        }
        return $url . '/api/licence';
    }

    /** protocol.md#product-and-nonce: `[A-Za-z0-9_-]{16,64}`, fresh for each call: 24 random bytes in base64url. */
    private static function nouveauNonce()
    {
        return rtrim(strtr(base64_encode(self::octetsAleatoires(24)), '+/', '-_'), '=');
    }

    /** random_bytes where it exists (PHP 7+); PHP 5.6 falls back to OpenSSL, mcrypt or /dev/urandom. */
    private static function octetsAleatoires($n)
    {
        if (function_exists('random_bytes')) {
            try {
                return random_bytes($n);
            } catch (Exception $erreur) {
                // No system source (PHP 7 throws then): the fallbacks below are tried next.
                self::journal('Licence: random_bytes failed: ' . $erreur->getMessage());
            }
        }
        if (function_exists('openssl_random_pseudo_bytes')) {
            $fort = false;
            $octets = openssl_random_pseudo_bytes($n, $fort);
            if ($octets !== false && $fort === true && strlen($octets) === $n) {
                return $octets;
            }
        }
        if (function_exists('mcrypt_create_iv') && defined('MCRYPT_DEV_URANDOM')) {
            $octets = mcrypt_create_iv($n, constant('MCRYPT_DEV_URANDOM'));
            if (is_string($octets) && strlen($octets) === $n) {
                return $octets;
            }
        }
        $h = @fopen('/dev/urandom', 'rb');
        if ($h !== false) {
            $octets = fread($h, $n);
            fclose($h);
            if (is_string($octets) && strlen($octets) === $n) {
                return $octets;
            }
        }
        // No system source at all: still unique per call, which is what a nonce needs here (a
        // replayed answer carries an older nonce); not secret, and never used as a key.
        $octets = '';
        while (strlen($octets) < $n) {
            $octets .= hash('sha256', uniqid('', true) . mt_rand() . microtime() . getmypid() . $octets, true);
        }
        return substr($octets, 0, $n);
    }

    // ---------------------------------------------------------------------------------------------
    // Pure rules, public so that the shared vectors can run them (packages/vectors).
    // ---------------------------------------------------------------------------------------------

    /**
     * protocol.md#key-normalisation: keep ASCII letters and digits, fold to upper case. Over 1024
     * characters, empty, or nothing left is refused (the service would answer 400).
     *
     * @throws InvalidArgumentException
     */
    public static function normaliserCle($brute)
    {
        if (!is_string($brute)) {
            throw new InvalidArgumentException('cle: expected a string, got ' . self::nomType($brute));
        }
        if (self::longueurUtf16($brute) > self::CLE_MAX) {
            throw new InvalidArgumentException('cle: longer than ' . self::CLE_MAX . ' characters');
        }
        if ($brute === '') {
            throw new InvalidArgumentException('cle: is empty');
        }
        $cle = strtoupper(preg_replace('/[^A-Za-z0-9]+/', '', $brute));
        if ($cle === '') {
            throw new InvalidArgumentException('cle: holds no letter or digit');
        }
        return $cle;
    }

    /**
     * protocol.md#host-normalisation, byte for byte what core's normalizeHost does: trim C0
     * controls and space, put `http://` in front unless a `scheme://` is there, read the host as
     * the WHATWG URL parser does for http(s) (lower case, IDN to punycode with intl's UTS #46,
     * percent-decoding, IPv4 in all its forms, IPv6 compressed), refuse userinfo and other schemes,
     * drop the port and one trailing dot, check the labels, remove one leading `www.` when a dot
     * remains.
     *
     * @return string the host (`hote`)
     * @throws InvalidArgumentException with a fixed message "url: ..."
     */
    public static function normaliserHote($url)
    {
        $autorite = self::autoriteDeLUrl($url);
        // Host and port: a ":" inside [...] belongs to an IPv6 address.
        $dansCrochets = false;
        $hote = $autorite;
        $port = null;
        for ($i = 0, $n = strlen($autorite); $i < $n; $i++) {
            $c = $autorite[$i];
            if ($c === '[') {
                $dansCrochets = true;
            } elseif ($c === ']') {
                $dansCrochets = false;
            } elseif ($c === ':' && !$dansCrochets) {
                $hote = substr($autorite, 0, $i);
                $port = (string) substr($autorite, $i + 1);
                break;
            }
        }
        if ($hote === '' || $hote === false) {
            throw new InvalidArgumentException('url: not a valid URL');
        }
        if ($port !== null && $port !== '' && (!preg_match('/^[0-9]+$/D', $port) || (int) ltrim($port, '0') > 65535 || strlen(ltrim($port, '0')) > 5)) {
            throw new InvalidArgumentException('url: not a valid URL');
        }

        $hote = self::analyserHote($hote);
        if ($hote['ip']) {
            // IP addresses are canonical already (WHATWG serialisers): no label or www rule.
            return $hote['texte'];
        }
        return self::nomDHote($hote['texte']);
    }

    /**
     * protocol.md#staging-hosts: true when $hote (a host as normaliserHote gives it) matches one of
     * the built-in staging patterns (MOTIFS_DE_STAGING) or one of $motifs (patterns as the service
     * keeps them: lower case, no trailing dot; a product's `staging` list, say). A pattern matches
     * whole labels from the right, with any number of labels in front; a `*` in its leftmost label
     * stands for one or more characters of that one label. The service decides with the same rules
     * on its own: this only lets a plugin tell a staging copy before any call.
     *
     * @param string   $hote
     * @param string[] $motifs
     * @return bool
     * @throws InvalidArgumentException when $hote is not a string or $motifs not an array of strings
     */
    public static function estHoteDeStaging($hote, $motifs = array())
    {
        if (!is_string($hote)) {
            throw new InvalidArgumentException('hote: expected a string, got ' . self::nomType($hote));
        }
        if (!is_array($motifs)) {
            throw new InvalidArgumentException('motifs: expected an array, got ' . self::nomType($motifs));
        }
        foreach ($motifs as $motif) {
            if (!is_string($motif)) {
                throw new InvalidArgumentException('motifs: expected strings, got ' . self::nomType($motif));
            }
        }
        foreach (array(explode(',', self::MOTIFS_DE_STAGING), $motifs) as $liste) {
            foreach ($liste as $motif) {
                if (self::correspondAuMotif($hote, $motif)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One staging pattern against a host: its labels against the host's rightmost ones. */
    private static function correspondAuMotif($hote, $motif)
    {
        $etiquettes = explode('.', $hote);
        $etiquettesDuMotif = explode('.', $motif);
        $decalage = count($etiquettes) - count($etiquettesDuMotif);
        if ($decalage < 0) {
            return false;
        }
        foreach ($etiquettesDuMotif as $i => $attendue) {
            if (!self::etiquetteCorrespond($etiquettes[$decalage + $i], $attendue)) {
                return false;
            }
        }
        return true;
    }

    /** One label against one pattern label, whose one `*` (if any) stands for 1+ characters. */
    private static function etiquetteCorrespond($etiquette, $attendue)
    {
        $etoile = strpos($attendue, '*');
        if ($etoile === false) {
            return $etiquette === $attendue;
        }
        // (string): before PHP 8, substr() past the end gives false, not ''.
        $avant = (string) substr($attendue, 0, $etoile);
        $apres = (string) substr($attendue, $etoile + 1);
        return strlen($etiquette) > strlen($avant) + strlen($apres)
            && strncmp($etiquette, $avant, strlen($avant)) === 0
            && ($apres === '' || (string) substr($etiquette, -strlen($apres)) === $apres);
    }

    /**
     * The authority of a http(s) URL, as the WHATWG URL parser finds it
     * (protocol.md#host-normalisation): the input checked and trimmed, `http://` put in front
     * unless a `scheme://` is there, other schemes and userinfo refused.
     */
    private static function autoriteDeLUrl($url)
    {
        if (!is_string($url)) {
            throw new InvalidArgumentException('url: expected a string, got ' . self::nomType($url));
        }
        $longueur = self::longueurUtf16($url);
        if ($longueur < 0) {
            throw new InvalidArgumentException('url: not valid UTF-8');
        }
        if ($longueur > self::URL_MAX) {
            throw new InvalidArgumentException('url: longer than ' . self::URL_MAX . ' characters');
        }
        $texte = trim($url, "\x00..\x20");
        if ($texte === '') {
            throw new InvalidArgumentException('url: is empty');
        }
        if (!preg_match('~^[A-Za-z][A-Za-z0-9+.\-]*://~', $texte)) {
            $texte = 'http://' . $texte;
        }
        // WHATWG URL: ASCII tab and newline are removed anywhere in the input.
        $texte = str_replace(array("\t", "\n", "\r"), '', $texte);

        $deuxPoints = strpos($texte, ':');
        $schema = strtolower(substr($texte, 0, $deuxPoints));
        if (!preg_match('/^[a-z][a-z0-9+.\-]*$/D', $schema)) {
            // Only reachable when a tab or newline split the scheme: the parser fails there too.
            throw new InvalidArgumentException('url: not a valid URL');
        }
        if ($schema !== 'http' && $schema !== 'https') {
            throw new InvalidArgumentException('url: scheme must be http or https, got ' . $schema);
        }
        // Special schemes: every "/" and "\" after "scheme:" is skipped; the authority ends at
        // the first "/", "\", "?" or "#".
        $reste = ltrim(substr($texte, $deuxPoints + 1), '/\\');
        $fin = strcspn($reste, '/\\?#');
        $autorite = substr($reste, 0, $fin);

        $arobase = strrpos($autorite, '@');
        if ($arobase !== false) {
            $infos = substr($autorite, 0, $arobase);
            $autorite = (string) substr($autorite, $arobase + 1);
            if ($autorite === '') {
                throw new InvalidArgumentException('url: not a valid URL');
            }
            // protocol.md#host-normalisation (as core): a user name or password is refused, an empty
            // one is dropped.
            if ($infos !== '' && $infos !== ':') {
                throw new InvalidArgumentException('url: must not hold a user name or password');
            }
        }

        return $autorite;
    }

    /**
     * A domain name's last rules (protocol.md#host-normalisation): one trailing dot dropped, the
     * labels checked, one leading `www.` removed when a dot remains.
     */
    private static function nomDHote($nom)
    {
        // One trailing dot goes (protocol.md#host-normalisation); a second one fails the empty-label
        // rule below.
        if (substr($nom, -1) === '.') {
            $nom = substr($nom, 0, -1);
        }
        $etiquettes = explode('.', $nom);
        foreach ($etiquettes as $etiquette) {
            if ($etiquette === '') {
                throw new InvalidArgumentException('url: host has an empty label');
            }
        }
        foreach ($etiquettes as $etiquette) {
            if (!preg_match('/^[a-z0-9_-]+$/D', $etiquette)) {
                throw new InvalidArgumentException('url: host has a character other than a-z, 0-9, "-" and "_"');
            }
        }
        foreach ($etiquettes as $etiquette) {
            if (strlen($etiquette) > self::ETIQUETTE_MAX) {
                throw new InvalidArgumentException('url: host has a label longer than ' . self::ETIQUETTE_MAX . ' characters');
            }
        }
        if (strlen($nom) > self::HOTE_MAX) {
            throw new InvalidArgumentException('url: host is longer than ' . self::HOTE_MAX . ' characters');
        }
        if (strncmp($nom, 'www.', 4) === 0 && strpos($nom, '.', 4) !== false) {
            return substr($nom, 4);
        }
        return $nom;
    }

    /**
     * WHATWG URL "host parser" for a special scheme: array('ip' => bool, 'texte' => serialised).
     * Refusals throw "url: not a valid URL", as core answers for whatever its parser refuses.
     */
    private static function analyserHote($entree)
    {
        if ($entree[0] === '[') {
            if (substr($entree, -1) !== ']') {
                throw new InvalidArgumentException('url: not a valid URL');
            }
            $morceaux = self::analyserIpv6(substr($entree, 1, -1));
            if ($morceaux === null) {
                throw new InvalidArgumentException('url: not a valid URL');
            }
            return array('ip' => true, 'texte' => '[' . self::ecrireIpv6($morceaux) . ']');
        }
        $domaine = preg_replace_callback('/%([0-9A-Fa-f]{2})/', function ($m) {
            return chr(hexdec($m[1]));
        }, $entree);
        $ascii = self::domaineVersAscii($domaine);
        // Forbidden domain code points (URL Standard): C0 controls, space, # % / : < > ? @ [ \ ] ^ | and DEL.
        if ($ascii === '' || preg_match('/[\x00-\x20#%\/:<>?@\[\\\\\]^|\x7f]/', $ascii)) {
            throw new InvalidArgumentException('url: not a valid URL');
        }
        if (self::finitParUnNombre($ascii)) {
            $valeur = self::analyserIpv4($ascii);
            if ($valeur === null) {
                throw new InvalidArgumentException('url: not a valid URL');
            }
            return array('ip' => true, 'texte' => self::ecrireIpv4($valeur));
        }
        return array('ip' => false, 'texte' => $ascii);
    }

    /**
     * URL Standard "domain to ASCII" (beStrict false): an ASCII name without an `xn--` label is
     * lower-cased; anything else goes through UTS #46 (non-transitional, CheckBidi, CheckJoiners,
     * no STD3 rules, no DNS length check) with intl's idn_to_ascii (protocol.md#hosts-in-clients).
     */
    private static function domaineVersAscii($domaine)
    {
        $ascii = !preg_match('/[\x80-\xff]/', $domaine);
        if ($ascii && !preg_match('/(^|\.)xn--/i', $domaine)) {
            return strtolower($domaine);
        }
        if (!function_exists('idn_to_ascii') || !defined('INTL_IDNA_VARIANT_UTS46') || !defined('IDNA_NONTRANSITIONAL_TO_ASCII')) {
            if ($ascii) {
                // Without intl an xn-- label is kept as it is (only lower-cased): its punycode is
                // not checked, which only matters for names no real site has.
                return strtolower($domaine);
            }
            throw new InvalidArgumentException('url: a non-ASCII host needs the intl extension (idn_to_ascii)');
        }
        if (self::longueurUtf16($domaine) < 0) {
            // Percent-decoding gave bytes that are not UTF-8: the parser maps them to U+FFFD,
            // which UTS #46 refuses.
            throw new InvalidArgumentException('url: not a valid URL');
        }
        // IDNA_CHECK_BIDI and IDNA_CHECK_CONTEXTJ come with the same ICU (4.6+) as the constant checked above.
        $options = constant('IDNA_NONTRANSITIONAL_TO_ASCII') | constant('IDNA_CHECK_BIDI') | constant('IDNA_CHECK_CONTEXTJ');
        $infos = array();
        $resultat = idn_to_ascii($domaine, $options, constant('INTL_IDNA_VARIANT_UTS46'), $infos);
        if ($resultat !== false) {
            return $resultat;
        }
        if (!isset($infos['errors'], $infos['result']) || !is_string($infos['result'])) {
            throw new InvalidArgumentException('url: not a valid URL');
        }
        // The URL Standard sets VerifyDnsLength and CheckHyphens to false: ICU still reports
        // those errors, which are ignored here (label and name lengths are checked by us later).
        $ignores = 0;
        foreach (array('IDNA_ERROR_EMPTY_LABEL', 'IDNA_ERROR_LABEL_TOO_LONG', 'IDNA_ERROR_DOMAIN_NAME_TOO_LONG', 'IDNA_ERROR_LEADING_HYPHEN', 'IDNA_ERROR_TRAILING_HYPHEN', 'IDNA_ERROR_HYPHEN_3_4') as $nom) {
            if (defined($nom)) {
                $ignores |= constant($nom);
            }
        }
        if (($infos['errors'] & ~$ignores) !== 0) {
            throw new InvalidArgumentException('url: not a valid URL');
        }
        return $infos['result'];
    }

    /** URL Standard "ends in a number checker". */
    private static function finitParUnNombre($texte)
    {
        $parties = explode('.', $texte);
        if (end($parties) === '') {
            if (count($parties) === 1) {
                return false;
            }
            array_pop($parties);
        }
        $derniere = end($parties);
        if ($derniere !== '' && preg_match('/^[0-9]+$/D', $derniere)) {
            return true;
        }
        return self::nombreIpv4($derniere) !== null;
    }

    /** URL Standard "IPv4 number parser": a number (int or float), or null on failure. */
    private static function nombreIpv4($texte)
    {
        if ($texte === '') {
            return null;
        }
        $base = 10;
        if (strlen($texte) >= 2 && ($texte[0] === '0') && ($texte[1] === 'x' || $texte[1] === 'X')) {
            $texte = substr($texte, 2);
            $base = 16;
        } elseif (strlen($texte) >= 2 && $texte[0] === '0') {
            $texte = substr($texte, 1);
            $base = 8;
        }
        if ($texte === '' || $texte === false) {
            return 0;
        }
        $chiffres = array(10 => '/^[0-9]+$/D', 16 => '/^[0-9A-Fa-f]+$/D', 8 => '/^[0-7]+$/D');
        if (!preg_match($chiffres[$base], $texte)) {
            return null;
        }
        // Floats from here on: exact up to 2^53, far beyond the 2^32 any address may reach; a
        // longer number only has to stay "too big".
        $valeur = 0;
        for ($i = 0, $n = strlen($texte); $i < $n; $i++) {
            $valeur = $valeur * $base + hexdec($texte[$i]);
            if ($valeur > 1e15) {
                $valeur = 1e15;
            }
        }
        return $valeur;
    }

    /** URL Standard "IPv4 parser": the address as a number, or null on failure. */
    private static function analyserIpv4($texte)
    {
        $parties = explode('.', $texte);
        if (end($parties) === '' && count($parties) > 1) {
            array_pop($parties);
        }
        if (count($parties) > 4) {
            return null;
        }
        $nombres = array();
        foreach ($parties as $partie) {
            $nombre = self::nombreIpv4($partie);
            if ($nombre === null) {
                return null;
            }
            $nombres[] = $nombre;
        }
        $dernier = array_pop($nombres);
        foreach ($nombres as $nombre) {
            if ($nombre > 255) {
                return null;
            }
        }
        if ($dernier >= pow(256, 5 - count($parties))) {
            return null;
        }
        $adresse = $dernier;
        foreach ($nombres as $i => $nombre) {
            $adresse += $nombre * pow(256, 3 - $i);
        }
        return $adresse;
    }

    private static function ecrireIpv4($adresse)
    {
        $parties = array();
        for ($i = 3; $i >= 0; $i--) {
            $parties[] = (string) (int) fmod(floor($adresse / pow(256, $i)), 256);
        }
        return implode('.', $parties);
    }

    /** URL Standard "IPv6 parser": eight 16-bit pieces, or null on failure. */
    private static function analyserIpv6($texte)
    {
        $adresse = array(0, 0, 0, 0, 0, 0, 0, 0);
        $morceau = 0;
        $compression = null;
        $i = 0;
        $n = strlen($texte);
        $c = function ($j) use ($texte, $n) {
            return $j < $n ? $texte[$j] : '';
        };
        if ($c(0) === ':') {
            if ($c(1) !== ':') {
                return null;
            }
            $i = 2;
            $morceau = 1;
            $compression = 1;
        }
        while ($c($i) !== '') {
            if ($morceau === 8) {
                return null;
            }
            if ($c($i) === ':') {
                if ($compression !== null) {
                    return null;
                }
                $i++;
                $morceau++;
                $compression = $morceau;
                continue;
            }
            $valeur = 0;
            $longueur = 0;
            while ($longueur < 4 && $c($i) !== '' && strpos('0123456789abcdefABCDEF', $c($i)) !== false) {
                $valeur = $valeur * 16 + hexdec($c($i));
                $i++;
                $longueur++;
            }
            if ($c($i) === '.') {
                if ($longueur === 0 || $morceau > 6) {
                    return null;
                }
                $fin = self::analyserIpv4DansIpv6($texte, $i - $longueur, $adresse, $morceau);
                if ($fin === null) {
                    return null;
                }
                list($adresse, $morceau) = $fin;
                break;
            } elseif ($c($i) === ':') {
                $i++;
                if ($c($i) === '') {
                    return null;
                }
            } elseif ($c($i) !== '') {
                return null;
            }
            $adresse[$morceau] = $valeur;
            $morceau++;
        }
        if ($compression !== null) {
            $echanges = $morceau - $compression;
            $morceau = 7;
            while ($morceau !== 0 && $echanges > 0) {
                $t = $adresse[$morceau];
                $adresse[$morceau] = $adresse[$compression + $echanges - 1];
                $adresse[$compression + $echanges - 1] = $t;
                $morceau--;
                $echanges--;
            }
        } elseif ($morceau !== 8) {
            return null;
        }
        return $adresse;
    }

    /**
     * URL Standard "IPv6 parser", its IPv4 part: the dotted quad from `$i` to the end of the
     * input, written into pieces `$morceau` and `$morceau + 1`; array(address, next piece), or
     * null on failure.
     */
    private static function analyserIpv4DansIpv6($texte, $i, $adresse, $morceau)
    {
        $n = strlen($texte);
        $c = function ($j) use ($texte, $n) {
            return $j < $n ? $texte[$j] : '';
        };
        $vus = 0;
        while ($c($i) !== '') {
            $octet = null;
            if ($vus > 0) {
                if ($c($i) === '.' && $vus < 4) {
                    $i++;
                } else {
                    return null;
                }
            }
            if ($c($i) === '' || strpos('0123456789', $c($i)) === false) {
                return null;
            }
            while ($c($i) !== '' && strpos('0123456789', $c($i)) !== false) {
                $chiffre = (int) $c($i);
                if ($octet === null) {
                    $octet = $chiffre;
                } elseif ($octet === 0) {
                    return null;
                } else {
                    $octet = $octet * 10 + $chiffre;
                }
                if ($octet > 255) {
                    return null;
                }
                $i++;
            }
            $adresse[$morceau] = $adresse[$morceau] * 0x100 + $octet;
            $vus++;
            if ($vus === 2 || $vus === 4) {
                $morceau++;
            }
        }
        return $vus === 4 ? array($adresse, $morceau) : null;
    }

    /** URL Standard "IPv6 serializer": the first longest run of two or more zero pieces becomes "::". */
    private static function ecrireIpv6($adresse)
    {
        $debut = null;
        $meilleure = 1;
        for ($i = 0; $i < 8; $i++) {
            if ($adresse[$i] !== 0) {
                continue;
            }
            $j = $i;
            while ($j < 8 && $adresse[$j] === 0) {
                $j++;
            }
            if ($j - $i > $meilleure) {
                $meilleure = $j - $i;
                $debut = $i;
            }
            $i = $j;
        }
        $sortie = '';
        $ignorerZeros = false;
        for ($i = 0; $i < 8; $i++) {
            if ($ignorerZeros && $adresse[$i] === 0) {
                continue;
            }
            $ignorerZeros = false;
            if ($debut === $i) {
                $sortie .= $i === 0 ? '::' : ':';
                $ignorerZeros = true;
                continue;
            }
            $sortie .= dechex($adresse[$i]);
            if ($i !== 7) {
                $sortie .= ':';
            }
        }
        return $sortie;
    }

    /**
     * The canonical form that the signature covers (protocol.md#canonical-form): keys sorted by
     * code point (the byte order of UTF-8, so SORT_STRING), no whitespace, `/` not escaped,
     * non-ASCII raw (U+2028/2029 included), integers in decimal within +-(2^53-1). Floats with a
     * fraction, bigger numbers, invalid UTF-8 and nesting beyond 32 levels are refused, exactly as
     * core refuses them. `$valeur` is what json_decode($texte) gives (objects as stdClass, so {} and
     * [] stay apart).
     *
     * @throws InvalidArgumentException
     */
    public static function canonique($valeur)
    {
        return self::ecrireCanonique($valeur, '$', 0);
    }

    private static function ecrireCanonique($valeur, $chemin, $profondeur)
    {
        if ($profondeur > self::PROFONDEUR_MAX) {
            throw new InvalidArgumentException($chemin . ': nested deeper than ' . self::PROFONDEUR_MAX . ' levels');
        }
        if (is_string($valeur)) {
            return self::chaineJson($valeur, $chemin);
        }
        if (is_bool($valeur)) {
            return $valeur ? 'true' : 'false';
        }
        if ($valeur === null) {
            return 'null';
        }
        if (is_int($valeur) || is_float($valeur)) {
            if (!self::estEntierSur($valeur)) {
                throw new InvalidArgumentException($chemin . ': expected an integer, got ' . var_export($valeur, true));
            }
            // JSON.parse reads 1.0 and 1e2 as the integers 1 and 100: so does this (-0 is 0).
            if (is_int($valeur)) {
                return (string) $valeur;
            }
            return PHP_INT_SIZE >= 8 ? (string) (int) $valeur : number_format($valeur == 0 ? 0 : $valeur, 0, '.', '');
        }
        if (is_array($valeur)) {
            if ($valeur !== array() && array_keys($valeur) !== range(0, count($valeur) - 1)) {
                throw new InvalidArgumentException($chemin . ': expected a list (decode JSON objects as objects)');
            }
            $elements = array();
            foreach ($valeur as $i => $element) {
                $elements[] = self::ecrireCanonique($element, $chemin . '[' . $i . ']', $profondeur + 1);
            }
            return '[' . implode(',', $elements) . ']';
        }
        if ($valeur instanceof stdClass) {
            $membres = array();
            foreach ($valeur as $cle => $element) {
                $membres[(string) $cle] = $element;
            }
            ksort($membres, SORT_STRING);
            $sortie = array();
            foreach ($membres as $cle => $element) {
                $sortie[] = self::chaineJson((string) $cle, $chemin) . ':' . self::ecrireCanonique($element, $chemin . '.' . $cle, $profondeur + 1);
            }
            return '{' . implode(',', $sortie) . '}';
        }
        throw new InvalidArgumentException($chemin . ': ' . self::nomType($valeur) . ' has no JSON form');
    }

    /** A JSON string exactly as JSON.stringify writes it (protocol.md#canonical-form). */
    private static function chaineJson($texte, $chemin)
    {
        $drapeaux = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE;
        if (defined('JSON_UNESCAPED_LINE_TERMINATORS')) {
            $drapeaux |= constant('JSON_UNESCAPED_LINE_TERMINATORS');
        }
        $json = json_encode($texte, $drapeaux);
        if (!is_string($json)) {
            throw new InvalidArgumentException($chemin . ': string is not valid UTF-8');
        }
        if (!defined('JSON_UNESCAPED_LINE_TERMINATORS') && strpos($json, '\\u202') !== false) {
            // PHP 5.6 and 7.0 already leave U+2028/U+2029 raw; this undoes an escape should a
            // build ever add one: "\u2028" preceded by an even run of backslashes is an escape.
            $json = preg_replace_callback('/(\\\\+)u(202[89])/', function ($m) {
                if (strlen($m[1]) % 2 === 0) {
                    return $m[0];
                }
                return substr($m[1], 1) . ($m[2] === '2028' ? "\xe2\x80\xa8" : "\xe2\x80\xa9");
            }, $json);
        }
        return $json;
    }

    /**
     * Standard, padded, canonical base64 (RFC 4648 sections 4 and 3.5), as core reads it: the
     * bytes, or null. There is exactly one accepted spelling of each signature and key.
     */
    public static function decoderBase64($texte)
    {
        if (!is_string($texte) || !preg_match('~^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$~D', $texte)) {
            return null;
        }
        $octets = base64_decode($texte, true);
        if (!is_string($octets) || base64_encode($octets) !== $texte) {
            return null;
        }
        return $octets;
    }

    /**
     * core verifyEnvelope: true when `$enveloppe` (a decoded body) is `{donnees: {...nine fields},
     * signature: base64 of 64 bytes}`, signed by one of `$cles` (raw 32-byte keys) over the
     * canonical form rebuilt from the parsed `donnees`, and `donnees` names `$attendu['hote']`,
     * and `produit` / `nonce` when expected (protocol.md#product-and-nonce). Never throws for what
     * it is handed.
     */
    public static function verifierEnveloppe($enveloppe, $cles, $attendu, $mode = null)
    {
        if (!($enveloppe instanceof stdClass) || !property_exists($enveloppe, 'donnees')) {
            return false;
        }
        $donnees = $enveloppe->donnees;
        if (!($donnees instanceof stdClass) || !property_exists($enveloppe, 'signature') || !is_string($enveloppe->signature)) {
            return false;
        }
        if (!self::aLaFormeDUnVerdict($donnees)) {
            return false;
        }
        if ($donnees->hote !== $attendu['hote']) {
            return false;
        }
        foreach (array('produit', 'nonce') as $champ) {
            if (isset($attendu[$champ]) && (!property_exists($donnees, $champ) || $donnees->$champ !== $attendu[$champ])) {
                return false;
            }
        }
        $signature = self::decoderBase64($enveloppe->signature);
        if ($signature === null || strlen($signature) !== 64) {
            return false;
        }
        try {
            $message = self::canonique($donnees);
        } catch (InvalidArgumentException $erreur) {
            // A value with no canonical form (a float, bad UTF-8) cannot have been signed by us.
            return false;
        }
        foreach ($cles as $cle) {
            if (self::verifierSignature($signature, $message, $cle, $mode)) {
                return true;
            }
        }
        return false;
    }

    /** The nine standard fields (protocol.md#verdict) with their types; produit and nonce are strings when present. */
    private static function aLaFormeDUnVerdict($donnees)
    {
        foreach (array('motif', 'domaine', 'quand', 'hote') as $champ) {
            if (!property_exists($donnees, $champ) || !is_string($donnees->$champ)) {
                return false;
            }
        }
        foreach (array('ok', 'essai') as $champ) {
            if (!property_exists($donnees, $champ) || !is_bool($donnees->$champ)) {
                return false;
            }
        }
        foreach (array('emis', 'revalider', 'sursis') as $champ) {
            if (!property_exists($donnees, $champ) || !self::estEntierSur($donnees->$champ)) {
                return false;
            }
        }
        foreach (array('produit', 'nonce') as $champ) {
            if (property_exists($donnees, $champ) && !is_string($donnees->$champ)) {
                return false;
            }
        }
        return true;
    }

    /**
     * core clientStep (protocol.md#states), pinned by client-states.json:
     * from the cache file as read (decoded JSON, or null), the call's outcome if any, and the time,
     * to array('action' => 'call') or array('action' => 'use', 'state', 'donnees', 'runs',
     * 'store' => record to write or null). A record is array('envelope' => stdClass|null,
     * 'failures' => int, 'retryAt' => int).
     *
     * @param int        $maintenant seconds since the epoch (the client clock)
     * @param mixed      $cache      the decoded cache file (null: none), trusted for nothing
     * @param array|null $issue      null, array('type' => 'response', 'status', 'body', 'retryAfter')
     *                               or array('type' => 'failure', 'reason' => 'network'|'timeout')
     * @param string[]   $cles       trusted public keys, raw 32 bytes each
     * @param array      $attendu    'hote', and 'produit', 'nonce' (the nonce of this call) when set;
     *                               'cle', the buyer's key as handed (any value), when asked about it
     */
    public static function etape($maintenant, $cache, $issue, $cles, $attendu, $mode = null)
    {
        if (!self::estEntierSur($maintenant) || $maintenant < 0) {
            throw new InvalidArgumentException('now: expected a non-negative integer (seconds), got ' . self::decrire($maintenant));
        }
        if (!is_array($cles) || count($cles) === 0) {
            throw new InvalidArgumentException('cles: expected a non-empty array of public keys');
        }
        if (!is_array($attendu) || !isset($attendu['hote']) || !is_string($attendu['hote']) || $attendu['hote'] === '') {
            throw new InvalidArgumentException('attendu: expected array(\'hote\' => a non-empty string, ...)');
        }
        // protocol.md#no-usable-key: a key that is none answers before anything else.
        if (array_key_exists('cle', $attendu)) {
            $probleme = self::problemeDeCle($attendu['cle']);
            if ($probleme !== null) {
                return self::sansCle($probleme, $maintenant, $attendu);
            }
            unset($attendu['cle']);
        }
        // A cached verdict must name this host and product; the nonce belongs to an old call
        // (protocol.md#product-and-nonce, #cache).
        $attenduCache = $attendu;
        unset($attenduCache['nonce']);
        $enregistrement = self::lireEnregistrement($cache, $cles, $attenduCache, $mode);
        $enCache = $enregistrement === null ? null : $enregistrement['envelope'];

        if ($issue === null) {
            if ($enCache !== null && $enCache->donnees->revalider > $maintenant) {
                return self::utiliser('fresh', $enCache->donnees, null);
            }
            if ($enregistrement !== null && $maintenant < $enregistrement['retryAt']) {
                // A retryAt beyond the longest back-off comes from a tampered file or a clock
                // that went back: cut to one hour and written so (core client-state.ts).
                $limite = $maintenant + self::RECUL_MAX;
                $aEcrire = $enregistrement['retryAt'] > $limite ? array('envelope' => $enCache, 'failures' => $enregistrement['failures'], 'retryAt' => $limite) : null;
                return self::repli($enCache, $maintenant, $attendu, $aEcrire);
            }
            return array('action' => 'call');
        }

        if (!is_array($issue) || !isset($issue['type']) || ($issue['type'] !== 'response' && $issue['type'] !== 'failure')) {
            throw new InvalidArgumentException('outcome.type: expected "response" or "failure"');
        }
        $statut = $issue['type'] === 'response' && isset($issue['status']) ? $issue['status'] : null;
        $corps = $issue['type'] === 'response' && array_key_exists('body', $issue) ? $issue['body'] : null;
        if ($issue['type'] === 'response' && (!is_int($statut) || $statut < 100 || $statut > 599)) {
            throw new InvalidArgumentException('outcome.status: expected an HTTP status from 100 to 599, got ' . self::decrire($statut));
        }
        if ($issue['type'] === 'response' && $statut >= 200 && $statut <= 299
            && self::verifierEnveloppe($corps, $cles, $attendu, $mode)) {
            $enveloppe = self::membresSignes($corps);
            return self::utiliser('refreshed', $enveloppe->donnees, array('envelope' => $enveloppe, 'failures' => 0, 'retryAt' => 0));
        }

        // Any other answer is a failed call (protocol.md#states).
        $echecs = min(($enregistrement === null ? 0 : $enregistrement['failures']) + 1, self::ENTIER_MAX);
        $retryAfter = $issue['type'] === 'response' && isset($issue['retryAfter']) ? $issue['retryAfter'] : null;
        $delai = self::delaiApresEchec($echecs, $maintenant, $statut, $retryAfter);
        return self::repli($enCache, $maintenant, $attendu, array('envelope' => $enCache, 'failures' => $echecs, 'retryAt' => $maintenant + $delai));
    }

    /**
     * What a process uses without calling, while another one holds the lock
     * (protocol.md#refresh-lock: the others keep the cached verdict meanwhile): the cached verdict
     * in grace, or lapsed.
     */
    private static function sansAppel($maintenant, $cache, $cles, $attendu, $mode)
    {
        $enregistrement = self::lireEnregistrement($cache, $cles, $attendu, $mode);
        $enCache = $enregistrement === null ? null : $enregistrement['envelope'];
        if ($enCache !== null && $enCache->donnees->revalider > $maintenant) {
            return self::utiliser('fresh', $enCache->donnees, null);
        }
        return self::repli($enCache, $maintenant, $attendu, null);
    }

    /** Grace with a cached verdict still inside `emis + sursis`, else lapsed (protocol.md#states). */
    private static function repli($enCache, $maintenant, $attendu, $aEcrire)
    {
        if ($enCache !== null && $enCache->donnees->emis + $enCache->donnees->sursis > $maintenant) {
            // The cached verdict as it is: a cached signed refusal still stops the product.
            return self::utiliser('grace', $enCache->donnees, $aEcrire);
        }
        // protocol.md#states: `reseau` is made by the client; never signed, never stored.
        return self::utiliser('lapsed', self::inventees('reseau', $maintenant, $attendu), $aEcrire);
    }

    /** protocol.md#no-usable-key: no call, nothing written, and the product does not run. */
    private static function sansCle($probleme, $maintenant, $attendu)
    {
        return self::utiliser('no_key', self::inventees($probleme, $maintenant, $attendu), null);
    }

    /**
     * core client-key.ts keyProblem: "sans_cle" when nothing was entered (not a string, or only
     * ASCII white space), "cle_invalide" when what was entered does not normalise to the 25
     * Crockford characters every key is issued with, null for a usable key.
     */
    private static function problemeDeCle($cle)
    {
        if (!is_string($cle) || preg_match('/^[ \t\n\r\x0B\f]*$/D', $cle)) {
            return 'sans_cle';
        }
        try {
            $normalisee = self::normaliserCle($cle);
        } catch (InvalidArgumentException $erreur) {
            return 'cle_invalide';
        }
        return preg_match('/^[0-9A-HJKMNP-TV-Z]{25}$/D', $normalisee) ? null : 'cle_invalide';
    }

    /** A verdict the client makes up (`motif` its own): never signed, never stored. */
    private static function inventees($motif, $maintenant, $attendu)
    {
        $donnees = new stdClass();
        $donnees->ok = false;
        $donnees->motif = $motif;
        $donnees->domaine = '';
        $donnees->essai = false;
        $donnees->quand = '';
        $donnees->emis = $maintenant;
        $donnees->revalider = $maintenant;
        $donnees->sursis = 0;
        $donnees->hote = $attendu['hote'];
        if (isset($attendu['produit'])) {
            $donnees->produit = $attendu['produit'];
        }
        return $donnees;
    }

    private static function utiliser($etat, $donnees, $aEcrire)
    {
        // Only a signed refusal stops a product; `reseau` never does (protocol.md#overview).
        $marche = $etat === 'lapsed' ? true : $donnees->ok === true;
        return array('action' => 'use', 'state' => $etat, 'donnees' => $donnees, 'runs' => $marche, 'store' => $aEcrire);
    }

    /**
     * The cache file if it is a well-formed record whose envelope (when not null) verifies for this
     * host and product; otherwise null, as if there were no file, back-off included.
     */
    private static function lireEnregistrement($cache, $cles, $attendu, $mode)
    {
        if (!($cache instanceof stdClass)) {
            return null;
        }
        if (!property_exists($cache, 'failures') || !property_exists($cache, 'retryAt') || !property_exists($cache, 'envelope')) {
            return null;
        }
        $echecs = $cache->failures;
        $reprise = $cache->retryAt;
        if (!self::estEntierSur($echecs) || $echecs < 0 || !self::estEntierSur($reprise) || $reprise < 0) {
            return null;
        }
        $echecs = self::entier($echecs);
        $reprise = self::entier($reprise);
        if ($cache->envelope === null) {
            return array('envelope' => null, 'failures' => $echecs, 'retryAt' => $reprise);
        }
        if (!self::verifierEnveloppe($cache->envelope, $cles, $attendu, $mode)) {
            return null;
        }
        return array('envelope' => self::membresSignes($cache->envelope), 'failures' => $echecs, 'retryAt' => $reprise);
    }

    /** A verified envelope as it is kept and stored: its two signed members only, whatever else it carried. */
    private static function membresSignes($enveloppe)
    {
        $copie = new stdClass();
        $copie->donnees = $enveloppe->donnees;
        $copie->signature = $enveloppe->signature;
        return $copie;
    }

    /**
     * core failedCallDelay: on a 429 with a usable Retry-After, what the service asked for,
     * clamped to [1, 3600]; otherwise 300, 600, 1200, 2400, 3600, 3600... (protocol.md#back-off).
     */
    public static function delaiApresEchec($echecs, $maintenant, $statut = null, $retryAfter = null)
    {
        $delai = self::RECUL_BASE;
        for ($n = 1; $n < $echecs && $delai < self::RECUL_MAX; $n++) {
            $delai *= 2;
        }
        $delai = min($delai, self::RECUL_MAX);
        if ($statut === 429 && is_string($retryAfter)) {
            $demande = self::secondesRetryAfter($retryAfter, $maintenant);
            if ($demande !== null) {
                return $demande;
            }
        }
        return $delai;
    }

    /**
     * core retryAfterSeconds (RFC 9110 10.2.3): delta-seconds or an HTTP-date in any of its three
     * forms, parsed by hand exactly as core does; the wait clamped to [1, 3600], or null.
     */
    public static function secondesRetryAfter($valeur, $maintenant)
    {
        $texte = preg_replace('/^[ \t]+|[ \t]+$/D', '', $valeur);
        if (preg_match('/^[0-9]+$/D', $texte)) {
            $chiffres = ltrim($texte, '0');
            $secondes = $chiffres === '' ? 0 : (strlen($chiffres) > 9 ? self::RECUL_MAX : (int) $chiffres);
            return self::borner($secondes);
        }
        $date = self::lireDateHttp($texte, $maintenant);
        if ($date === null) {
            return null;
        }
        return self::borner($date - $maintenant);
    }

    private static function borner($secondes)
    {
        return (int) min(max($secondes, self::ATTENTE_MIN), self::RECUL_MAX);
    }

    /** RFC 9110 5.6.7: IMF-fixdate, RFC 850 and asctime, case-sensitive; seconds or null. */
    private static function lireDateHttp($texte, $maintenant)
    {
        $mois = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
        $jour = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
        $jourLong = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
        $heure = '([0-9]{2}):([0-9]{2}):([0-9]{2})';
        if (preg_match('/^(?:' . $jour . '), ([0-9]{2}) (' . $mois . ') ([0-9]{4}) ' . $heure . ' GMT$/D', $texte, $m)) {
            return self::versSecondes((int) $m[3], $m[2], (int) $m[1], $m[4], $m[5], $m[6]);
        }
        if (preg_match('/^(?:' . $jourLong . '), ([0-9]{2})-(' . $mois . ')-([0-9]{2}) ' . $heure . ' GMT$/D', $texte, $m)) {
            // A two-digit year more than 50 years ahead is the most recent past year with those digits.
            $civil = self::dateCivile((int) floor($maintenant / 86400));
            $anneeCourante = $civil[0];
            $annee = $anneeCourante - self::modulo($anneeCourante, 100) + (int) $m[3];
            if ($annee > $anneeCourante + 50) {
                $annee -= 100;
            }
            return self::versSecondes($annee, $m[2], (int) $m[1], $m[4], $m[5], $m[6]);
        }
        if (preg_match('/^(?:' . $jour . ') (' . $mois . ') ( [0-9]|[0-9]{2}) ' . $heure . ' ([0-9]{4})$/D', $texte, $m)) {
            return self::versSecondes((int) $m[6], $m[1], (int) trim($m[2]), $m[3], $m[4], $m[5]);
        }
        return null;
    }

    private static function versSecondes($annee, $nomMois, $jour, $h, $min, $s)
    {
        $mois = array_search($nomMois, array('Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'), true) + 1;
        $h = (int) $h;
        $min = (int) $min;
        // 60 is a leap second (RFC 5322 3.3); it rolls into the next minute.
        $s = (int) $s;
        if ($h > 23 || $min > 59 || $s > 60) {
            return null;
        }
        $bissextile = self::modulo($annee, 4) === 0 && (self::modulo($annee, 100) !== 0 || self::modulo($annee, 400) === 0);
        $longueurs = array(31, $bissextile ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31);
        // "31 Feb" does not exist: unusable, not guessed at.
        if ($jour < 1 || $jour > $longueurs[$mois - 1]) {
            return null;
        }
        return self::joursDepuisEpoque($annee, $mois, $jour) * 86400 + $h * 3600 + $min * 60 + $s;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    private static function joursDepuisEpoque($annee, $mois, $jour)
    {
        $annee -= $mois <= 2 ? 1 : 0;
        $ere = (int) floor($annee / 400);
        $anneeDeLEre = $annee - $ere * 400;
        $jourDeLAnnee = (int) floor((153 * ($mois > 2 ? $mois - 3 : $mois + 9) + 2) / 5) + $jour - 1;
        $jourDeLEre = $anneeDeLEre * 365 + (int) floor($anneeDeLEre / 4) - (int) floor($anneeDeLEre / 100) + $jourDeLAnnee;
        return $ere * 146097 + $jourDeLEre - 719468;
    }

    /** array(year, month, day) of a day count since 1970-01-01 (H. Hinnant's civil_from_days). */
    private static function dateCivile($jours)
    {
        $z = $jours + 719468;
        $ere = (int) floor($z / 146097);
        $jourDeLEre = $z - $ere * 146097;
        $anneeDeLEre = (int) floor(($jourDeLEre - floor($jourDeLEre / 1460) + floor($jourDeLEre / 36524) - floor($jourDeLEre / 146096)) / 365);
        $jourDeLAnnee = $jourDeLEre - (365 * $anneeDeLEre + (int) floor($anneeDeLEre / 4) - (int) floor($anneeDeLEre / 100));
        $mp = (int) floor((5 * $jourDeLAnnee + 2) / 153);
        $jour = $jourDeLAnnee - (int) floor((153 * $mp + 2) / 5) + 1;
        $mois = $mp < 10 ? $mp + 3 : $mp - 9;
        return array($anneeDeLEre + $ere * 400 + ($mois <= 2 ? 1 : 0), $mois, $jour);
    }

    private static function modulo($a, $b)
    {
        $r = $a % $b;
        return $r < 0 ? $r + $b : $r;
    }

    // ---------------------------------------------------------------------------------------------
    // Messages (protocol.md#messages: French and English, naming the domains and dating the event),
    // word for word those of the TypeScript client: packages/vectors/cases/messages.json pins both.
    // ---------------------------------------------------------------------------------------------

    /**
     * The sentence message() gives: what the verdict says, the domains it names, the date of the
     * event (`quand`) and, in grace, when the verdict was last checked (`emis`). Public, like
     * etape(), so that the shared vectors can run it.
     *
     * @param stdClass $donnees the verdict acted on (signed, or the client's own `reseau` one)
     * @param string   $etat    "fresh", "refreshed", "grace", "lapsed" or "no_key"
     * @param string   $langue  "fr" or "en"
     * @return string
     */
    public static function phrase($donnees, $etat, $langue)
    {
        $textes = self::textes($langue);
        if ($etat === 'lapsed') {
            return $textes['injoignable'];
        }
        if ($etat === 'no_key') {
            return $textes[$donnees->motif === 'sans_cle' ? 'sansCle' : 'cleInvalide'];
        }
        $phrase = $donnees->ok === true ? self::phraseValide($donnees, $textes) : self::phraseRefus($donnees, $textes);
        if ($etat !== 'grace') {
            return $phrase;
        }
        return $phrase . ' ' . strtr($textes['derniereVerification'], array('{date}' => self::dateLisible((int) $donnees->emis, $textes)));
    }

    private static function phraseValide($donnees, $textes)
    {
        if ($donnees->essai === true) {
            return strtr($textes['essai'], array('{hote}' => $donnees->hote));
        }
        return strtr($textes['valide'], array('{domaine}' => $donnees->domaine === '' ? $donnees->hote : $donnees->domaine));
    }

    private static function phraseRefus($donnees, $textes)
    {
        $domaines = self::listeDomaines($donnees->domaine, $textes['et']);
        $valeurs = array(
            '{hote}' => $donnees->hote,
            '{motif}' => $donnees->motif,
            '{domaines}' => $domaines,
            '{le}' => self::dateEvenement($donnees->quand, $textes),
        );
        switch ($donnees->motif) {
            case 'autre_domaine':
                return strtr($domaines === '' ? $textes['aucunDomaine'] : $textes['autreDomaine'], $valeurs);
            case 'inconnue':
                return $textes['inconnue'];
            case 'transfert':
            case 'regeneration':
            case 'revocation':
            case 'expiree':
                $phrase = strtr($textes[$donnees->motif], $valeurs);
                break;
            default:
                // A reason a later service may add: named as it is, never hidden; its quand, whose
                // meaning this client cannot know, is left out.
                $phrase = strtr($textes['refusee'], $valeurs);
        }
        return $domaines === '' ? $phrase : $phrase . ' ' . strtr($textes['domaines'], $valeurs);
    }

    /** `domaine` is the bound domains, ", "-joined in binding order (protocol.md#verdict): "a, b et c". */
    private static function listeDomaines($domaine, $et)
    {
        $liste = array();
        foreach (explode(', ', $domaine) as $nom) {
            if ($nom !== '') {
                $liste[] = $nom;
            }
        }
        if (count($liste) <= 1) {
            return implode('', $liste);
        }
        $dernier = array_pop($liste);
        return implode(', ', $liste) . ' ' . $et . ' ' . $dernier;
    }

    /** " le 22 novembre 2026 à 10:14 UTC" from `quand` (ISO 8601 UTC); as it is in another form; "" when empty. */
    private static function dateEvenement($quand, $textes)
    {
        if ($quand === '') {
            return '';
        }
        if (!preg_match('/^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):[0-9]{2}Z$/D', $quand, $m)) {
            return strtr($textes['le'], array('{date}' => $quand));
        }
        return strtr($textes['le'], array('{date}' => self::ecrireDate((int) $m[1], (int) $m[2], (int) $m[3], $m[4] . ':' . $m[5], $textes)));
    }

    /** A timestamp (seconds, UTC) written out: "3 janvier 2026 à 09:00 UTC", "3 January 2026 at 09:00 UTC". */
    private static function dateLisible($secondes, $textes)
    {
        $civil = self::dateCivile((int) floor($secondes / 86400));
        $duJour = self::modulo($secondes, 86400);
        $heure = sprintf('%02d:%02d', (int) floor($duJour / 3600), (int) floor(($duJour % 3600) / 60));
        return self::ecrireDate($civil[0], $civil[1], $civil[2], $heure, $textes);
    }

    private static function ecrireDate($annee, $mois, $jour, $heure, $textes)
    {
        $nom = isset($textes['mois'][$mois - 1]) ? $textes['mois'][$mois - 1] : (string) $mois;
        // French writes the first of the month as an ordinal: "1er mars".
        $jour = $jour === 1 && isset($textes['premier']) ? $textes['premier'] : (string) $jour;
        return $jour . ' ' . $nom . ' ' . $annee . ' ' . $textes['a'] . ' ' . $heure . ' UTC';
    }

    /** The words of message() in one language; "langue: ..." for any other. */
    private static function textes($langue)
    {
        self::verifierLangue($langue);
        if ($langue === 'fr') {
            return array(
                'injoignable' => 'Le service de licence n\'a pas pu être joint : le produit continue de fonctionner et vérifiera la licence plus tard.',
                'sansCle' => 'Aucune clé de licence n\'est saisie : entrez la clé reçue à l\'achat dans les réglages du produit.',
                'cleInvalide' => 'La clé saisie n\'est pas une clé de licence : une clé compte 25 lettres et chiffres, sous la forme XXXXX-XXXXX-XXXXX-XXXXX-XXXXX. Vérifiez-la dans les réglages du produit.',
                'valide' => 'Licence valide pour {domaine}.',
                'essai' => 'Licence en mode essai sur {hote} (site de test ou clé de développement).',
                'derniereVerification' => 'Le service de licence ne répond pas ; dernière vérification le {date}.',
                'autreDomaine' => 'Cette clé de licence est déjà utilisée sur {domaines}. Transférez-la depuis votre compte pour l\'utiliser sur {hote}.',
                'aucunDomaine' => 'Cette clé de licence ne permet pas d\'activer {hote}.',
                'transfert' => 'Cette clé de licence a été transférée vers un autre site{le}. Saisissez la nouvelle clé reçue lors du transfert.',
                'regeneration' => 'Cette clé de licence a été remplacée par une nouvelle clé{le}. Saisissez la nouvelle clé.',
                'revocation' => 'Cette clé de licence a été révoquée{le}. Contactez l\'éditeur du produit.',
                'expiree' => 'Cette clé d\'essai a expiré{le}.',
                'inconnue' => 'Cette clé de licence n\'existe pas pour ce produit : vérifiez la clé saisie.',
                'refusee' => 'Licence refusée pour {hote} (motif : {motif}).',
                'domaines' => 'Domaines concernés : {domaines}.',
                'le' => ' le {date}',
                'et' => 'et',
                'a' => 'à',
                'premier' => '1er',
                'mois' => array('janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'),
            );
        }
        return array(
            'injoignable' => 'The licence service could not be reached: the product keeps working and will check the licence later.',
            'sansCle' => 'No licence key has been entered: enter the key you received with your purchase in the product\'s settings.',
            'cleInvalide' => 'The key entered is not a licence key: a key has 25 letters and digits, in the form XXXXX-XXXXX-XXXXX-XXXXX-XXXXX. Check it in the product\'s settings.',
            'valide' => 'Licence valid for {domaine}.',
            'essai' => 'Licence in trial mode on {hote} (a test site or a development key).',
            'derniereVerification' => 'The licence service is not answering; last checked on {date}.',
            'autreDomaine' => 'This licence key is already in use on {domaines}. Transfer it from your account to use it on {hote}.',
            'aucunDomaine' => 'This licence key cannot be activated on {hote}.',
            'transfert' => 'This licence key was transferred to another site{le}. Enter the new key you received with the transfer.',
            'regeneration' => 'This licence key was replaced by a new key{le}. Enter the new key.',
            'revocation' => 'This licence key was revoked{le}. Contact the product\'s publisher.',
            'expiree' => 'This trial key expired{le}.',
            'inconnue' => 'This licence key does not exist for this product: check the key you entered.',
            'refusee' => 'Licence refused for {hote} (reason: {motif}).',
            'domaines' => 'Domains concerned: {domaines}.',
            'le' => ' on {date}',
            'et' => 'and',
            'a' => 'at',
            'mois' => array('January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'),
        );
    }

    private static function verifierLangue($langue)
    {
        if ($langue !== 'fr' && $langue !== 'en') {
            throw new InvalidArgumentException('langue: expected "fr" or "en", got ' . self::decrire($langue));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Small helpers.
    // ---------------------------------------------------------------------------------------------

    /** JavaScript's Number.isSafeInteger over what json_decode gives (1.0 is the integer 1 there). */
    private static function estEntierSur($v)
    {
        if (is_int($v)) {
            return $v >= -self::ENTIER_MAX && $v <= self::ENTIER_MAX;
        }
        return is_float($v) && is_finite($v) && floor($v) == $v && abs($v) <= self::ENTIER_MAX;
    }

    /** A safe integer as a PHP int where it fits (always on 64-bit PHP). */
    private static function entier($v)
    {
        return is_float($v) && abs($v) <= PHP_INT_MAX ? (int) $v : $v;
    }

    /** Length in UTF-16 code units, as JavaScript counts (protocol.md#key-normalisation); -1 when not valid UTF-8. */
    private static function longueurUtf16($texte)
    {
        if (!preg_match('//u', $texte)) {
            return -1;
        }
        return strlen($texte) - preg_match_all('/[\x80-\xbf]/', $texte) + preg_match_all('/[\xf0-\xf4]/', $texte);
    }

    private static function lireClesPubliques($cles)
    {
        if (is_string($cles)) {
            $cles = preg_split('/[\s,]+/', trim($cles), -1, PREG_SPLIT_NO_EMPTY);
        }
        if (!is_array($cles) || count($cles) === 0) {
            throw new InvalidArgumentException('cles_publiques: expected the service public key(s), base64 (set Licence::CLES_PUBLIQUES or the cles_publiques option)');
        }
        $octets = array();
        foreach (array_values($cles) as $i => $cle) {
            $brut = self::decoderBase64($cle);
            if ($brut === null || strlen($brut) !== 32) {
                throw new InvalidArgumentException('cles_publiques[' . $i . ']: expected canonical padded base64 of 32 bytes');
            }
            $octets[] = $brut;
        }
        return $octets;
    }

    private static function nomType($v)
    {
        if (is_object($v)) {
            return 'an object of class ' . get_class($v);
        }
        if ($v === null) {
            return 'null';
        }
        return gettype($v);
    }

    /** A configuration value for an error message: short scalars shown, the rest by type. */
    private static function decrire($v)
    {
        if (is_string($v)) {
            return strlen($v) <= 80 && preg_match('//u', $v) ? '"' . $v . '"' : 'a string of ' . strlen($v) . ' bytes';
        }
        if (is_int($v) || is_float($v)) {
            return var_export($v, true);
        }
        if (is_bool($v)) {
            return $v ? 'true' : 'false';
        }
        return self::nomType($v);
    }

    // ---------------------------------------------------------------------------------------------
    // Ed25519 verification (RFC 8032 5.1.7): sodium where it exists, else pure PHP.
    // ---------------------------------------------------------------------------------------------

    private static function sodiumDisponible()
    {
        return function_exists('sodium_crypto_sign_verify_detached') || function_exists('Sodium\\crypto_sign_verify_detached');
    }

    /**
     * True when `$signature` (64 bytes) is a valid Ed25519 signature of `$message` by
     * `$clePublique` (32 bytes). Strict RFC 8032 verification: non-canonical encodings of R and A,
     * S >= L and small-order public keys are refused, as libsodium and core (noble, zip215: false)
     * refuse them. Never throws for bad bytes.
     *
     * @param string|null $mode "sodium", "php", or null: sodium unless Licence::$forcerPhp
     */
    public static function verifierSignature($signature, $message, $clePublique, $mode = null)
    {
        if (!is_string($signature) || !is_string($message) || !is_string($clePublique)) {
            throw new InvalidArgumentException('verifierSignature: expected three byte strings');
        }
        if (strlen($signature) !== 64 || strlen($clePublique) !== 32) {
            return false;
        }
        if ($mode === null) {
            $mode = !self::$forcerPhp && self::sodiumDisponible() ? 'sodium' : 'php';
        }
        if ($mode === 'sodium') {
            try {
                if (function_exists('sodium_crypto_sign_verify_detached')) {
                    return sodium_crypto_sign_verify_detached($signature, $message, $clePublique);
                }
                if (function_exists('Sodium\\crypto_sign_verify_detached')) {
                    // The PECL libsodium extension of PHP 5.6 to 7.1 names it in a namespace.
                    return (bool) call_user_func('Sodium\\crypto_sign_verify_detached', $signature, $message, $clePublique);
                }
                throw new InvalidArgumentException('verifierSignature: mode "sodium" but the sodium extension is not available');
            } catch (Exception $erreur) {
                // sodium throws on wrong lengths only, checked above; anything else is a bad signature.
                return false;
            }
        }
        if ($mode !== 'php') {
            throw new InvalidArgumentException('verifierSignature: mode must be "sodium", "php" or null');
        }
        return self::verifierEd25519($signature, $message, $clePublique);
    }

    /**
     * The pure-PHP verifier. It needs 64-bit integers (PHP_INT_SIZE 8): its field arithmetic is
     * ref10's radix 2^25.5 (ten signed limbs), whose products reach 2^62 at most (see feMultiplier).
     * A 32-bit PHP without sodium cannot verify: every answer then counts as a failed call, which
     * never blocks the product (README).
     */
    private static function verifierEd25519($signature, $message, $clePublique)
    {
        if (PHP_INT_SIZE < 8) {
            return false;
        }
        $r = substr($signature, 0, 32);
        $s = substr($signature, 32, 32);
        // S must be canonical: S < L (RFC 8032 5.1.7 step 1), so no malleated S + L.
        if (!self::scalaireCanonique($s)) {
            return false;
        }
        $a = self::decoderPoint($clePublique);
        $pr = self::decoderPoint($r);
        if ($a === null || $pr === null) {
            return false;
        }
        // Small-order public keys are refused (libsodium, noble strict): [8]A = identity.
        if (self::estNeutre(self::geDouble(self::geDouble(self::geDouble($a))))) {
            return false;
        }
        // k = SHA-512(R || A || M) mod L, over the bytes as received (RFC 8032 5.1.7 step 2).
        $k = self::reduireModL(hash('sha512', $r . $clePublique . $message, true));
        // Q = [S]B - [k]A, then the cofactored check [8](R - Q) = identity (RFC 8032 5.1.7 step 3).
        $q = self::doubleMultiplication($s, $k, self::geNegatif($a));
        $d = self::geAjouter($pr, self::geEnCache(self::geNegatif($q)));
        return self::estNeutre(self::geDouble(self::geDouble(self::geDouble($d))));
    }

    private static $constantes = null;
    private static $tableB = null;

    /** d, 2d, sqrt(-1) and B, decoded once from their RFC 8032 values (little-endian hex). */
    private static function constantes()
    {
        if (self::$constantes === null) {
            self::$constantes = array(
                'd' => self::feDepuisOctets(hex2bin('a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352')),
                'd2' => self::feDepuisOctets(hex2bin('59f1b226949bd6eb56b183829a14e00030d1f3eef2808e19e7fcdf56dcd90624')),
                'racine' => self::feDepuisOctets(hex2bin('b0a00e4a271beec478e42fad0618432fa7d7fb3d99004d2b0bdfc14f8024832b')),
            );
        }
        return self::$constantes;
    }

    /** S < L, L = 2^252 + 27742317777372353535851937790883648493, both little-endian. */
    private static function scalaireCanonique($s)
    {
        $l = hex2bin('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010');
        for ($i = 31; $i >= 0; $i--) {
            $x = ord($s[$i]);
            $y = ord($l[$i]);
            if ($x !== $y) {
                return $x < $y;
            }
        }
        return false;
    }

    /**
     * RFC 8032 5.1.3, strict: y < p, x recovered from y, and x = 0 with the sign bit set refused.
     * Returns the point in extended coordinates array(X, Y, Z, T), or null.
     */
    private static function decoderPoint($octets)
    {
        $dernier = ord($octets[31]);
        $signe = $dernier >> 7;
        $yOctets = substr($octets, 0, 31) . chr($dernier & 0x7f);
        // y >= p = 2^255 - 19 only for the 19 values 2^255-19 .. 2^255-1.
        if (ord($yOctets[0]) >= 0xed && substr($yOctets, 1) === str_repeat("\xff", 30) . "\x7f") {
            return null;
        }
        $c = self::constantes();
        $y = self::feDepuisOctets($yOctets);
        $un = array(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        $y2 = self::feCarre($y);
        $u = self::feSous($y2, $un);                          // u = y^2 - 1
        $v = self::feAjout(self::feMultiplier($y2, $c['d']), $un);   // v = d y^2 + 1
        $v3 = self::feMultiplier(self::feCarre($v), $v);
        $x = self::feMultiplier(self::feMultiplier(self::feCarre($v3), $v), $u);  // u v^7
        $x = self::fePuissance22523($x);                      // (u v^7)^((p-5)/8)
        $x = self::feMultiplier(self::feMultiplier($x, $v3), $u);           // x = u v^3 (u v^7)^((p-5)/8)
        $vxx = self::feMultiplier(self::feCarre($x), $v);
        if (!self::feEstNul(self::feSous($vxx, $u))) {
            if (!self::feEstNul(self::feAjout($vxx, $u))) {
                return null;
            }
            $x = self::feMultiplier($x, $c['racine']);
        }
        $octetsX = self::feVersOctets($x);
        if ($octetsX === str_repeat("\0", 32) && $signe === 1) {
            return null;
        }
        if ((ord($octetsX[0]) & 1) !== $signe) {
            $x = self::feNegatif($x);
        }
        return array($x, $y, $un, self::feMultiplier($x, $y));
    }

    /** The identity in extended coordinates: X = 0 and Y = Z. */
    private static function estNeutre($p)
    {
        return self::feEstNul($p[0]) && self::feEstNul(self::feSous($p[1], $p[2]));
    }

    private static function geNegatif($p)
    {
        return array(self::feNegatif($p[0]), $p[1], $p[2], self::feNegatif($p[3]));
    }

    /** A point ready to be added: (Y+X, Y-X, 2Z, 2dT) (add-2008-hwcd-3, a = -1). */
    private static function geEnCache($p)
    {
        $c = self::constantes();
        return array(self::feAjout($p[1], $p[0]), self::feSous($p[1], $p[0]), self::feAjout($p[2], $p[2]), self::feMultiplier($p[3], $c['d2']));
    }

    /** P + Q with Q in cached form (EFD add-2008-hwcd-3 for a = -1): 8 multiplications. */
    private static function geAjouter($p, $q)
    {
        $a = self::feMultiplier(self::feSous($p[1], $p[0]), $q[1]);
        $b = self::feMultiplier(self::feAjout($p[1], $p[0]), $q[0]);
        $cc = self::feMultiplier($p[3], $q[3]);
        $dd = self::feMultiplier($p[2], $q[2]);
        $e = self::feSous($b, $a);
        $f = self::feSous($dd, $cc);
        $g = self::feAjout($dd, $cc);
        $h = self::feAjout($b, $a);
        return array(self::feMultiplier($e, $f), self::feMultiplier($g, $h), self::feMultiplier($f, $g), self::feMultiplier($e, $h));
    }

    /**
     * 2P (EFD dbl-2008-hwcd for a = -1, signs folded). T is not an input, so it is computed only
     * when asked (the next operation is an addition).
     */
    private static function geDouble($p, $avecT = true)
    {
        $a = self::feCarre($p[0]);
        $b = self::feCarre($p[1]);
        $c = self::feCarre($p[2]);
        $c = self::feAjout($c, $c);
        $h = self::feAjout($a, $b);
        $e = self::feSous($h, self::feCarre(self::feAjout($p[0], $p[1])));
        $g = self::feSous($a, $b);
        $f = self::feAjout($c, $g);
        return array(self::feMultiplier($e, $f), self::feMultiplier($g, $h), self::feMultiplier($f, $g), $avecT ? self::feMultiplier($e, $h) : null);
    }

    /** The multiples 0..15 of a point, in cached form. */
    private static function table($p)
    {
        $neutre = array(array(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), array(1, 0, 0, 0, 0, 0, 0, 0, 0, 0), array(1, 0, 0, 0, 0, 0, 0, 0, 0, 0), array(0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        $table = array(self::geEnCache($neutre), self::geEnCache($p));
        $courant = $p;
        $cache = $table[1];
        for ($i = 2; $i < 16; $i++) {
            $courant = self::geAjouter($courant, $cache);
            $table[$i] = self::geEnCache($courant);
        }
        return $table;
    }

    /**
     * [s]B + [k]P (Straus, four bits at a time over both scalars): 252 doublings and at most 128
     * additions. Variable time, which is fine for a verifier: everything it handles is public.
     */
    private static function doubleMultiplication($s, $k, $p)
    {
        if (self::$tableB === null) {
            $base = self::decoderPoint(hex2bin('5866666666666666666666666666666666666666666666666666666666666666'));
            self::$tableB = self::table($base);
        }
        $tableB = self::$tableB;
        $tableP = self::table($p);
        $zero = array(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        $un = array(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        $q = array($zero, $un, $un, $zero);
        for ($i = 63; $i >= 0; $i--) {
            if ($i !== 63) {
                $q = self::geDouble($q, false);
                $q = self::geDouble($q, false);
                $q = self::geDouble($q, false);
                $q = self::geDouble($q, true);
            }
            $octetS = ord($s[$i >> 1]);
            $octetK = ord($k[$i >> 1]);
            $chiffreS = ($i & 1) ? $octetS >> 4 : $octetS & 15;
            $chiffreK = ($i & 1) ? $octetK >> 4 : $octetK & 15;
            if ($chiffreS !== 0) {
                $q = self::geAjouter($q, $tableB[$chiffreS]);
            }
            if ($chiffreK !== 0) {
                $q = self::geAjouter($q, $tableP[$chiffreK]);
            }
        }
        return $q;
    }

    /** A 64-byte little-endian number mod L, as 32 bytes (TweetNaCl's modL, 64-bit integers). */
    private static function reduireModL($octets)
    {
        $l = array(0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10);
        $x = array_values(unpack('C*', $octets));
        for ($i = 63; $i >= 32; $i--) {
            $retenue = 0;
            for ($j = $i - 32; $j < $i - 12; $j++) {
                $x[$j] += $retenue - 16 * $x[$i] * $l[$j - ($i - 32)];
                $retenue = ($x[$j] + 128) >> 8;
                $x[$j] -= $retenue << 8;
            }
            $x[$j] += $retenue;
            $x[$i] = 0;
        }
        $retenue = 0;
        for ($j = 0; $j < 32; $j++) {
            $x[$j] += $retenue - ($x[31] >> 4) * $l[$j];
            $retenue = $x[$j] >> 8;
            $x[$j] &= 255;
        }
        for ($j = 0; $j < 32; $j++) {
            $x[$j] -= $retenue * $l[$j];
        }
        $sortie = '';
        for ($i = 0; $i < 32; $i++) {
            $x[$i + 1] += $x[$i] >> 8;
            $sortie .= chr($x[$i] & 255);
        }
        return $sortie;
    }

    // Field GF(2^255 - 19), ref10 representation: ten signed limbs of 26, 25, 26, 25... bits.
    // Bounds: a reduced element (the output of feMultiplier, feCarre, feRetenues) has |limb| <= 2^25
    // (even) and 2^24 (odd) or so; feMultiplier and feCarre stay below 2^63 for inputs up to six
    // reduced elements added together (worst term sum 498 * 2^50 * a^2 with a = 3), and the
    // formulas above add at most four.

    private static function feAjout($f, $g)
    {
        return array($f[0] + $g[0], $f[1] + $g[1], $f[2] + $g[2], $f[3] + $g[3], $f[4] + $g[4], $f[5] + $g[5], $f[6] + $g[6], $f[7] + $g[7], $f[8] + $g[8], $f[9] + $g[9]);
    }

    private static function feSous($f, $g)
    {
        return array($f[0] - $g[0], $f[1] - $g[1], $f[2] - $g[2], $f[3] - $g[3], $f[4] - $g[4], $f[5] - $g[5], $f[6] - $g[6], $f[7] - $g[7], $f[8] - $g[8], $f[9] - $g[9]);
    }

    private static function feNegatif($f)
    {
        return array(-$f[0], -$f[1], -$f[2], -$f[3], -$f[4], -$f[5], -$f[6], -$f[7], -$f[8], -$f[9]);
    }

    private static function feEstNul($f)
    {
        return self::feVersOctets($f) === str_repeat("\0", 32);
    }

    /** 32 little-endian bytes to limbs; the top bit is ignored (the caller reads it as a sign). */
    private static function feDepuisOctets($octets)
    {
        $largeurs = array(26, 25, 26, 25, 26, 25, 26, 25, 26, 25);
        $h = array();
        $accumulateur = 0;
        $bits = 0;
        $position = 0;
        foreach ($largeurs as $largeur) {
            while ($bits < $largeur) {
                $accumulateur |= ord($octets[$position]) << $bits;
                $position++;
                $bits += 8;
            }
            $h[] = $accumulateur & ((1 << $largeur) - 1);
            $accumulateur >>= $largeur;
            $bits -= $largeur;
        }
        return $h;
    }

    /** The unique representative below p, as 32 little-endian bytes (ref10 fe_tobytes). */
    private static function feVersOctets($f)
    {
        list($h0, $h1, $h2, $h3, $h4, $h5, $h6, $h7, $h8, $h9) = self::feRetenues($f);
        $q = (19 * $h9 + (1 << 24)) >> 25;
        $q = ($h0 + $q) >> 26;
        $q = ($h1 + $q) >> 25;
        $q = ($h2 + $q) >> 26;
        $q = ($h3 + $q) >> 25;
        $q = ($h4 + $q) >> 26;
        $q = ($h5 + $q) >> 25;
        $q = ($h6 + $q) >> 26;
        $q = ($h7 + $q) >> 25;
        $q = ($h8 + $q) >> 26;
        $q = ($h9 + $q) >> 25;
        $h0 += 19 * $q;
        $c = $h0 >> 26; $h1 += $c; $h0 -= $c << 26;
        $c = $h1 >> 25; $h2 += $c; $h1 -= $c << 25;
        $c = $h2 >> 26; $h3 += $c; $h2 -= $c << 26;
        $c = $h3 >> 25; $h4 += $c; $h3 -= $c << 25;
        $c = $h4 >> 26; $h5 += $c; $h4 -= $c << 26;
        $c = $h5 >> 25; $h6 += $c; $h5 -= $c << 25;
        $c = $h6 >> 26; $h7 += $c; $h6 -= $c << 26;
        $c = $h7 >> 25; $h8 += $c; $h7 -= $c << 25;
        $c = $h8 >> 26; $h9 += $c; $h8 -= $c << 26;
        $c = $h9 >> 25; $h9 -= $c << 25;
        $limbes = array($h0, $h1, $h2, $h3, $h4, $h5, $h6, $h7, $h8, $h9);
        $largeurs = array(26, 25, 26, 25, 26, 25, 26, 25, 26, 25);
        $sortie = '';
        $accumulateur = 0;
        $bits = 0;
        foreach ($limbes as $i => $limbe) {
            $accumulateur |= $limbe << $bits;
            $bits += $largeurs[$i];
            while ($bits >= 8) {
                $sortie .= chr($accumulateur & 255);
                $accumulateur >>= 8;
                $bits -= 8;
            }
        }
        return $sortie . chr($accumulateur & 255);
    }

    /**
     * The carry chain that ends feMultiplier and feCarre (ref10's, in its order), also used alone:
     * brings the ten limbs, or a sum of elements, back to reduced bounds.
     */
    private static function feRetenues($f)
    {
        list($h0, $h1, $h2, $h3, $h4, $h5, $h6, $h7, $h8, $h9) = $f;
        $c = ($h0 + 33554432) >> 26; $h1 += $c; $h0 -= $c << 26;
        $c = ($h4 + 33554432) >> 26; $h5 += $c; $h4 -= $c << 26;
        $c = ($h1 + 16777216) >> 25; $h2 += $c; $h1 -= $c << 25;
        $c = ($h5 + 16777216) >> 25; $h6 += $c; $h5 -= $c << 25;
        $c = ($h2 + 33554432) >> 26; $h3 += $c; $h2 -= $c << 26;
        $c = ($h6 + 33554432) >> 26; $h7 += $c; $h6 -= $c << 26;
        $c = ($h3 + 16777216) >> 25; $h4 += $c; $h3 -= $c << 25;
        $c = ($h7 + 16777216) >> 25; $h8 += $c; $h7 -= $c << 25;
        $c = ($h4 + 33554432) >> 26; $h5 += $c; $h4 -= $c << 26;
        $c = ($h8 + 33554432) >> 26; $h9 += $c; $h8 -= $c << 26;
        $c = ($h9 + 16777216) >> 25; $h0 += $c * 19; $h9 -= $c << 25;
        $c = ($h0 + 33554432) >> 26; $h1 += $c; $h0 -= $c << 26;
        return array($h0, $h1, $h2, $h3, $h4, $h5, $h6, $h7, $h8, $h9);
    }

    /**
     * f * g mod p (ref10 fe_mul, products grouped by their factor: 2 when both limbs are odd, 19
     * for the wrap-around 2^255 = 19). Inputs of up to six reduced elements added keep every sum
     * below 2^63.
     */
    private static function feMultiplier($f, $g)
    {
        list($f0, $f1, $f2, $f3, $f4, $f5, $f6, $f7, $f8, $f9) = $f;
        list($g0, $g1, $g2, $g3, $g4, $g5, $g6, $g7, $g8, $g9) = $g;
        $h0 = $f0 * $g0 + 19 * ($f2 * $g8 + $f4 * $g6 + $f6 * $g4 + $f8 * $g2) + 38 * ($f1 * $g9 + $f3 * $g7 + $f5 * $g5 + $f7 * $g3 + $f9 * $g1);
        $h1 = $f0 * $g1 + $f1 * $g0 + 19 * ($f2 * $g9 + $f3 * $g8 + $f4 * $g7 + $f5 * $g6 + $f6 * $g5 + $f7 * $g4 + $f8 * $g3 + $f9 * $g2);
        $h2 = $f0 * $g2 + $f2 * $g0 + 2 * $f1 * $g1 + 19 * ($f4 * $g8 + $f6 * $g6 + $f8 * $g4) + 38 * ($f3 * $g9 + $f5 * $g7 + $f7 * $g5 + $f9 * $g3);
        $h3 = $f0 * $g3 + $f1 * $g2 + $f2 * $g1 + $f3 * $g0 + 19 * ($f4 * $g9 + $f5 * $g8 + $f6 * $g7 + $f7 * $g6 + $f8 * $g5 + $f9 * $g4);
        $h4 = $f0 * $g4 + $f2 * $g2 + $f4 * $g0 + 2 * ($f1 * $g3 + $f3 * $g1) + 19 * ($f6 * $g8 + $f8 * $g6) + 38 * ($f5 * $g9 + $f7 * $g7 + $f9 * $g5);
        $h5 = $f0 * $g5 + $f1 * $g4 + $f2 * $g3 + $f3 * $g2 + $f4 * $g1 + $f5 * $g0 + 19 * ($f6 * $g9 + $f7 * $g8 + $f8 * $g7 + $f9 * $g6);
        $h6 = $f0 * $g6 + $f2 * $g4 + $f4 * $g2 + $f6 * $g0 + 2 * ($f1 * $g5 + $f3 * $g3 + $f5 * $g1) + 19 * $f8 * $g8 + 38 * ($f7 * $g9 + $f9 * $g7);
        $h7 = $f0 * $g7 + $f1 * $g6 + $f2 * $g5 + $f3 * $g4 + $f4 * $g3 + $f5 * $g2 + $f6 * $g1 + $f7 * $g0 + 19 * ($f8 * $g9 + $f9 * $g8);
        $h8 = $f0 * $g8 + $f2 * $g6 + $f4 * $g4 + $f6 * $g2 + $f8 * $g0 + 2 * ($f1 * $g7 + $f3 * $g5 + $f5 * $g3 + $f7 * $g1) + 38 * $f9 * $g9;
        $h9 = $f0 * $g9 + $f1 * $g8 + $f2 * $g7 + $f3 * $g6 + $f4 * $g5 + $f5 * $g4 + $f6 * $g3 + $f7 * $g2 + $f8 * $g1 + $f9 * $g0;
        return self::feRetenues(array($h0, $h1, $h2, $h3, $h4, $h5, $h6, $h7, $h8, $h9));
    }

    /** f^2 mod p (ref10 fe_sq, same grouping as feMultiplier). */
    private static function feCarre($f)
    {
        list($f0, $f1, $f2, $f3, $f4, $f5, $f6, $f7, $f8, $f9) = $f;
        $h0 = $f0 * $f0 + 38 * ($f2 * $f8 + $f4 * $f6 + $f5 * $f5) + 76 * ($f1 * $f9 + $f3 * $f7);
        $h1 = 2 * $f0 * $f1 + 38 * ($f2 * $f9 + $f3 * $f8 + $f4 * $f7 + $f5 * $f6);
        $h2 = 2 * ($f0 * $f2 + $f1 * $f1) + 19 * $f6 * $f6 + 38 * $f4 * $f8 + 76 * ($f3 * $f9 + $f5 * $f7);
        $h3 = 2 * ($f0 * $f3 + $f1 * $f2) + 38 * ($f4 * $f9 + $f5 * $f8 + $f6 * $f7);
        $h4 = $f2 * $f2 + 2 * $f0 * $f4 + 4 * $f1 * $f3 + 38 * ($f6 * $f8 + $f7 * $f7) + 76 * $f5 * $f9;
        $h5 = 2 * ($f0 * $f5 + $f1 * $f4 + $f2 * $f3) + 38 * ($f6 * $f9 + $f7 * $f8);
        $h6 = 2 * ($f0 * $f6 + $f2 * $f4 + $f3 * $f3) + 4 * $f1 * $f5 + 19 * $f8 * $f8 + 76 * $f7 * $f9;
        $h7 = 2 * ($f0 * $f7 + $f1 * $f6 + $f2 * $f5 + $f3 * $f4) + 38 * $f8 * $f9;
        $h8 = $f4 * $f4 + 2 * ($f0 * $f8 + $f2 * $f6) + 4 * ($f1 * $f7 + $f3 * $f5) + 38 * $f9 * $f9;
        $h9 = 2 * ($f0 * $f9 + $f1 * $f8 + $f2 * $f7 + $f3 * $f6 + $f4 * $f5);
        return self::feRetenues(array($h0, $h1, $h2, $h3, $h4, $h5, $h6, $h7, $h8, $h9));
    }

    /** z^(2^252 - 3), i.e. z^((p-5)/8) (ref10 fe_pow22523's addition chain). */
    private static function fePuissance22523($z)
    {
        $t0 = self::feCarre($z);
        $t1 = self::feCarre(self::feCarre($t0));
        $t1 = self::feMultiplier($z, $t1);
        $t0 = self::feMultiplier($t0, $t1);
        $t0 = self::feCarre($t0);
        $t0 = self::feMultiplier($t1, $t0);
        $t1 = self::feCarreN($t0, 5);
        $t0 = self::feMultiplier($t1, $t0);
        $t1 = self::feCarreN($t0, 10);
        $t1 = self::feMultiplier($t1, $t0);
        $t2 = self::feCarreN($t1, 20);
        $t1 = self::feMultiplier($t2, $t1);
        $t1 = self::feCarreN($t1, 10);
        $t0 = self::feMultiplier($t1, $t0);
        $t1 = self::feCarreN($t0, 50);
        $t1 = self::feMultiplier($t1, $t0);
        $t2 = self::feCarreN($t1, 100);
        $t1 = self::feMultiplier($t2, $t1);
        $t1 = self::feCarreN($t1, 50);
        $t0 = self::feMultiplier($t1, $t0);
        $t0 = self::feCarreN($t0, 2);
        return self::feMultiplier($t0, $z);
    }

    private static function feCarreN($f, $n)
    {
        for ($i = 0; $i < $n; $i++) {
            $f = self::feCarre($f);
        }
        return $f;
    }
}
