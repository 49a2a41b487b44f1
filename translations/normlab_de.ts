<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="de_DE">
<context>
    <name>normlab::ChartLegend</name>
    <message>
        <source>Hidden. Click to show it; double-click to show only it.</source>
        <translation>Ausgeblendet. Klicken zeigt es; Doppelklick zeigt nur es.</translation>
    </message>
    <message>
        <source>Click to hide it; double-click to show only it; right-click for more.</source>
        <translation>Klicken blendet es aus; Doppelklick zeigt nur es; Rechtsklick für mehr.</translation>
    </message>
</context>
<context>
    <name>normlab::ChartsView</name>
    <message>
        <source>each run its own line</source>
        <translation>jeder Lauf als eigene Linie</translation>
    </message>
    <message>
        <source>runs differing only by seed: mean ± std</source>
        <translation>Läufe, die sich nur im Seed unterscheiden: Mittel ± Std.-Abw.</translation>
    </message>
    <message>
        <source>runs differing only by seed: mean, min–max</source>
        <translation>Läufe, die sich nur im Seed unterscheiden: Mittel, Min.–Max.</translation>
    </message>
    <message>
        <source>Runs whose settings are equal but for the seed are drawn as one line, their mean, with a shaded band; a run alone in its group keeps its own line.</source>
        <translation>Läufe, deren Einstellungen bis auf den Seed gleich sind, werden als eine Linie (ihr Mittel) mit schattiertem Band gezeichnet; ein Lauf allein in seiner Gruppe behält seine eigene Linie.</translation>
    </message>
    <message>
        <source>Group runs</source>
        <translation>Läufe gruppieren</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Gains</source>
        <translation>Verstärkungen</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Scalars</source>
        <translation>Skalare</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>wall time (s)</source>
        <translation>Laufzeit (s)</translation>
    </message>
    <message>
        <source>log y</source>
        <translation>log. y</translation>
    </message>
    <message>
        <source>Logarithmic loss axis (Ctrl+L)</source>
        <translation>Logarithmische Verlustachse (Strg+L)</translation>
    </message>
    <message>
        <source>Debiased exponential moving average along the x axis, over the full data: every run is smoothed alike, however many points it has; the raw curve stays faint beneath</source>
        <translation>Bias-korrigierter exponentieller gleitender Mittelwert entlang der x-Achse über alle Daten: jeder Lauf wird gleich stark geglättet, wie viele Punkte er auch hat; die Rohkurve bleibt blass darunter</translation>
    </message>
    <message>
        <source>x:</source>
        <translation>x:</translation>
    </message>
    <message>
        <source>log x</source>
        <translation>log. x</translation>
    </message>
    <message>
        <source>Logarithmic x axis for the loss and learning rate; step 0 is left out</source>
        <translation>Logarithmische x-Achse für Verlust und Lernrate; Schritt 0 entfällt</translation>
    </message>
    <message>
        <source>smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <source>series</source>
        <translation>Reihe</translation>
    </message>
    <message>
        <source> train</source>
        <translation> Training</translation>
    </message>
    <message>
        <source>train</source>
        <translation>Training</translation>
    </message>
    <message>
        <source> val</source>
        <translation> Validierung</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>loss floor (entropy rate)</source>
        <translation>Verlustuntergrenze (Entropierate)</translation>
    </message>
    <message>
        <source>unigram (byte frequencies)</source>
        <translation>Unigramm (Bytehäufigkeiten)</translation>
    </message>
    <message>
        <source>loss (nats/byte)</source>
        <translation>Verlust (nats/Byte)</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>lr</source>
        <translation>LR</translation>
    </message>
    <message>
        <source>a loss</source>
        <translation>einen Verlust</translation>
    </message>
    <message>
        <source>a learning rate</source>
        <translation>eine Lernrate</translation>
    </message>
    <message>
        <source>the form's block</source>
        <translation>Block des Formulars</translation>
    </message>
    <message>
        <source>Draw the block the experiment form describes first, as you edit it: a click on one of its parts switches that part off in the form, a click on a dashed one switches it on.</source>
        <translation>Zuerst den Block zeichnen, den das Experiment-Formular beschreibt, während Sie es bearbeiten: ein Klick auf einen seiner Teile schaltet ihn im Formular aus, ein Klick auf einen gestrichelten schaltet ihn ein.</translation>
    </message>
    <message>
        <source>The form: %1</source>
        <translation>Formular: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 (+ %n alike)</source>
        <translation>
            <numerusform>%1 (+ %n gleicher)</numerusform>
            <numerusform>%1 (+ %n gleiche)</numerusform>
        </translation>
    </message>
    <message>
        <source>Select runs in the table, or tick “the form's block”, to see their blocks.</source>
        <translation>Läufe in der Tabelle auswählen oder „Block des Formulars“ ankreuzen, um ihre Blöcke zu sehen.</translation>
    </message>
    <message>
        <source>Yellow: normalizations; blue: sub-layers; green: scales; outlined: where a block differs from the first.</source>
        <translation>Gelb: Normalisierungen; blau: Teilschichten; grün: Skalierungen; umrandet: worin ein Block vom ersten abweicht.</translation>
    </message>
    <message numerus="yes">
        <source>%n more block(s) not shown: select fewer runs.</source>
        <translation>
            <numerusform>%n weiterer Block nicht gezeigt: weniger Läufe auswählen.</numerusform>
            <numerusform>%n weitere Blöcke nicht gezeigt: weniger Läufe auswählen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) with a configuration this version cannot read.</source>
        <translation>
            <numerusform>%n Lauf mit einer Konfiguration, die diese Version nicht lesen kann.</numerusform>
            <numerusform>%n Läufe mit einer Konfiguration, die diese Version nicht lesen kann.</numerusform>
        </translation>
    </message>
    <message>
        <source>this view has no chart to export</source>
        <translation>diese Ansicht hat kein Diagramm zum Exportieren</translation>
    </message>
    <message>
        <source>every run is hidden: click one in the legend to show it, then export</source>
        <translation>alle Läufe sind ausgeblendet: einen in der Legende anklicken, um ihn zu zeigen, dann exportieren</translation>
    </message>
    <message>
        <source>gain</source>
        <translation>Verstärkung</translation>
    </message>
    <message>
        <source>histogram of layer</source>
        <translation>Histogramm der Schicht</translation>
    </message>
    <message>
        <source>learned gains</source>
        <translation>gelernte Verstärkungen</translation>
    </message>
    <message>
        <source>%1 per layer at step %2</source>
        <translation>%1 je Schicht bei Schritt %2</translation>
    </message>
    <message>
        <source>global</source>
        <translation>global</translation>
    </message>
    <message>
        <source>layer (step %1)</source>
        <translation>Schicht (Schritt %1)</translation>
    </message>
    <message>
        <source>Histogram of a gain</source>
        <translation>Histogramm einer Verstärkung</translation>
    </message>
    <message>
        <source>Histogram of %1, layer %2, step %3</source>
        <translation>Histogramm von %1, Schicht %2, Schritt %3</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>%1 values in %2 bins</source>
        <translation>%1 Werte in %2 Klassen</translation>
    </message>
    <message>
        <source>mean |∂L/∂W| (L1)</source>
        <translation>Mittel |∂L/∂W| (L1)</translation>
    </message>
    <message>
        <source>‖∂L/∂W‖_F (L2)</source>
        <translation>‖∂L/∂W‖_F (L2)</translation>
    </message>
    <message>
        <source>expected gradient ‖E[∂L/∂W]‖ at init</source>
        <translation>erwarteter Gradient ‖E[∂L/∂W]‖ bei Initialisierung</translation>
    </message>
    <message>
        <source>log color scale</source>
        <translation>logarithmische Farbskala</translation>
    </message>
    <message>
        <source>one scale for all runs</source>
        <translation>eine Skala für alle Läufe</translation>
    </message>
    <message>
        <source>Compared runs share one colour scale, so a colour means the same value in each; off: each run its own</source>
        <translation>Verglichene Läufe teilen eine Farbskala, damit eine Farbe überall denselben Wert bedeutet; aus: jeder Lauf seine eigene</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>Norm</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>gradient</source>
        <translation>Gradient</translation>
    </message>
    <message>
        <source>%1 (×%2)</source>
        <translation>%1 (×%2)</translation>
    </message>
    <message>
        <source>No run shown: select runs in the Runs table (Ctrl+click for several), or train one with Run (Ctrl+R).</source>
        <translation>Kein Lauf gezeigt: Läufe in der Lauftabelle wählen (Strg+Klick für mehrere) oder einen mit Starten (Strg+R) trainieren.</translation>
    </message>
    <message>
        <source>It exists only in nGPT runs.</source>
        <translation>Es gibt ihn nur in nGPT-Läufen.</translation>
    </message>
    <message>
        <source>It exists only in BranchNorm runs.</source>
        <translation>Es gibt ihn nur in BranchNorm-Läufen.</translation>
    </message>
    <message>
        <source>It exists only in runs with DeepNorm's residual scaling.</source>
        <translation>Es gibt ihn nur in Läufen mit DeepNorms Residualskalierung.</translation>
    </message>
    <message>
        <source>It is recorded every %1 steps (Experiment → Probes; 0 switches it off).</source>
        <translation>Er wird alle %1 Schritte aufgezeichnet (Experiment → Sonden; 0 schaltet ihn ab).</translation>
    </message>
    <message>
        <source>It is recorded at step 0 when %1 is above 0 (Experiment → Probes).</source>
        <translation>Er wird bei Schritt 0 aufgezeichnet, wenn %1 größer als 0 ist (Experiment → Sonden).</translation>
    </message>
    <message>
        <source>It is recorded from the first training step on.</source>
        <translation>Er wird ab dem ersten Trainingsschritt aufgezeichnet.</translation>
    </message>
    <message>
        <source>None of the shown runs has recorded %1 yet.</source>
        <translation>Keiner der gezeigten Läufe hat bisher %1 aufgezeichnet.</translation>
    </message>
    <message>
        <source>Every scheme's blocks have it but nGPT's, which keep their vectors on the unit sphere instead.</source>
        <translation>Die Blöcke jedes Schemas haben es außer nGPTs, die ihre Vektoren stattdessen auf der Einheitssphäre halten.</translation>
    </message>
    <message>
        <source>It exists where %1 is on (Experiment → NormFormer; its preset switches it on).</source>
        <translation>Es gibt es, wo %1 an ist (Experiment → NormFormer; seine Voreinstellung schaltet es ein).</translation>
    </message>
    <message>
        <source>It exists only in some schemes' blocks (the Block tab draws a run's).</source>
        <translation>Es gibt es nur in den Blöcken mancher Schemata (der Reiter Block zeichnet die eines Laufs).</translation>
    </message>
    <message>
        <source>None of the shown runs' models has the weight %1.</source>
        <translation>Keines der Modelle der gezeigten Läufe hat das Gewicht %1.</translation>
    </message>
    <message>
        <source>nothing recorded by %1 of %2 runs: %3</source>
        <translation>nichts aufgezeichnet von %1 der %2 Läufe: %3</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>step: a line per layer over the steps.
layer: a line per run across the layers, at the step the slider picks (each run's last point at or before it).</source>
        <translation>Schritt: eine Linie je Schicht über die Schritte.
Schicht: eine Linie je Lauf über die Schichten, beim Schritt, den der Regler wählt (der letzte Punkt jedes Laufs bis dahin).</translation>
    </message>
    <message>
        <source>probe</source>
        <translation>Sonde</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>final validation loss</source>
        <translation>Validierungsverlust am Ende</translation>
    </message>
    <message>
        <source>best validation loss</source>
        <translation>bester Validierungsverlust</translation>
    </message>
    <message>
        <source>final training loss (mean of the last 20 points)</source>
        <translation>Trainingsverlust am Ende (Mittel der letzten 20 Punkte)</translation>
    </message>
    <message>
        <source>The outcome on the last axis, which colours each run's line as its colour bar shows, the lowest drawn on top. A run still training shows its latest; one without any (diverged, or not evaluated yet) is a grey dashed line.</source>
        <translation>Das Ergebnis auf der letzten Achse, das die Linie jedes Laufs so färbt, wie ihr Farbbalken zeigt; das niedrigste obenauf gezeichnet. Ein Lauf, der noch trainiert, zeigt sein neuestes; einer ohne Ergebnis (divergiert oder noch nicht ausgewertet) ist eine graue gestrichelte Linie.</translation>
    </message>
    <message>
        <source>outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>settings the scheme implies</source>
        <translation>vom Schema bestimmte Einstellungen</translation>
    </message>
    <message>
        <source>Also an axis for each setting that every run has as its scheme sets it (layout, final norm, NormFormer's switches, ...): the scheme's axis says them already. A setting a run changed from its scheme is always an axis.</source>
        <translation>Auch eine Achse für jede Einstellung, die jeder Lauf so hat, wie sein Schema sie setzt (Anordnung, finale Norm, NormFormers Schalter, …): die Achse des Schemas sagt sie schon. Eine Einstellung, die ein Lauf gegenüber seinem Schema geändert hat, ist immer eine Achse.</translation>
    </message>
    <message>
        <source>Hide “%1”</source>
        <translation>„%1“ ausblenden</translation>
    </message>
    <message>
        <source>Show hidden settings (%1)</source>
        <translation>Ausgeblendete Einstellungen zeigen (%1)</translation>
    </message>
    <message>
        <source>Right-click the chart to hide a setting or show them.</source>
        <translation>Rechtsklick auf das Diagramm blendet eine Einstellung aus oder zeigt sie.</translation>
    </message>
<message>
        <source>Largest attention logit</source>
        <translation>Größter Attention-Logit</translation>
    </message>
    <message>
        <source>Share of active MLP units</source>
        <translation>Anteil aktiver MLP-Einheiten</translation>
    </message>
    <message>
        <source>Condition number FC1</source>
        <translation>Konditionszahl FC1</translation>
    </message>
    <message>
        <source>Condition number FC2</source>
        <translation>Konditionszahl FC2</translation>
    </message>
    <message>
        <source>Global gradient norm (before clipping)</source>
        <translation>Globale Gradientennorm (vor der Begrenzung)</translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation>Tokens pro Sekunde</translation>
    </message>
    <message>
        <source>DeepNorm α</source>
        <translation>DeepNorm α</translation>
    </message>
    <message>
        <source>Model-FLOPs utilisation (MFU)</source>
        <translation>Modell-FLOP-Auslastung (MFU)</translation>
    </message>
    <message>
        <source>nGPT eigen learning rate α_{A}</source>
        <translation>nGPT-Eigen-Lernrate α_{A}</translation>
    </message>
    <message>
        <source>nGPT eigen learning rate α_{M}</source>
        <translation>nGPT-Eigen-Lernrate α_{M}</translation>
    </message>
    <message>
        <source>Condition number W_{q} (median over heads)</source>
        <translation>Konditionszahl W_{q} (Median über Köpfe)</translation>
    </message>
    <message>
        <source>Condition number W_{k} (median over heads)</source>
        <translation>Konditionszahl W_{k} (Median über Köpfe)</translation>
    </message>
    <message>
        <source>Condition number W_{v} (median over heads)</source>
        <translation>Konditionszahl W_{v} (Median über Köpfe)</translation>
    </message>
    <message>
        <source>Condition number W_{O}</source>
        <translation>Konditionszahl W_{O}</translation>
    </message>
    <message>
        <source>BranchNorm α_{t}</source>
        <translation>BranchNorm α_{t}</translation>
    </message>
    <message>
        <source>Hidden-state norm ‖x_{ℓ}‖</source>
        <translation>Norm des verborgenen Zustands ‖x_{ℓ}‖</translation>
    </message>
    <message>
        <source>Hidden-state ‖x_{ℓ}‖²/d</source>
        <translation>Verborgener Zustand ‖x_{ℓ}‖²/d</translation>
    </message>
    <message>
        <source>cos(x_{ℓ−1}, x_{ℓ})</source>
        <translation>cos(x_{ℓ−1}, x_{ℓ})</translation>
    </message>
    <message>
        <source>Post-LN: σ into the norm after attention</source>
        <translation>Post-LN: σ am Eingang der Norm nach der Attention</translation>
    </message>
    <message>
        <source>Post-LN: σ into the norm after the MLP</source>
        <translation>Post-LN: σ am Eingang der Norm nach dem MLP</translation>
    </message>
    <message>
        <source>Post-LN: cos(residual, attention branch)</source>
        <translation>Post-LN: cos(Residuum, Attention-Zweig)</translation>
    </message>
    <message>
        <source>Post-LN: cos(residual, MLP branch)</source>
        <translation>Post-LN: cos(Residuum, MLP-Zweig)</translation>
    </message>
    <message>
        <source>cos(x_{ℓ}[t], x_{ℓ}[t′]) between positions</source>
        <translation>cos(x_{ℓ}[t], x_{ℓ}[t′]) zwischen Positionen</translation>
    </message>
    <message>
        <source>%1 · d %2 · %3 heads</source>
        <translation>%1 · d %2 · %3 Köpfe</translation>
    </message>
</context>
<context>
    <name>normlab::Designer</name>
    <message>
        <source>A scheme is a preset of the components below; change any of them afterwards for ablations.</source>
        <translation>Ein Schema ist eine Voreinstellung der Komponenten darunter; jede lässt sich danach für Ablationen ändern.</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>Variant to edit</source>
        <translation>Zu bearbeitende Variante</translation>
    </message>
    <message>
        <source>Which run of the opened experiment the form shows and edits: Run trains it, Save writes its changes</source>
        <translation>Welcher Lauf des geöffneten Experiments im Formular gezeigt und bearbeitet wird: Starten trainiert ihn, Speichern schreibt seine Änderungen</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Choose a file to train on</source>
        <translation>Trainingsdatei wählen</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>Trainingsdaten</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Run experiment</source>
        <translation>Experiment starten</translation>
    </message>
    <message>
        <source>%1 sets %2.</source>
        <translation>%1 setzt %2.</translation>
    </message>
    <message>
        <source>Restored what the previous scheme had changed: %1.</source>
        <translation>Zurückgesetzt, was das vorige Schema geändert hatte: %1.</translation>
    </message>
    <message>
        <source>These apply only to the nGPT layout (Layout: ngpt, or the nGPT scheme)</source>
        <translation>Gilt nur für das nGPT-Layout (Layout: ngpt oder das nGPT-Schema)</translation>
    </message>
    <message>
        <source>nGPT has no LayerNorm: these do not apply to the nGPT layout</source>
        <translation>nGPT hat keine LayerNorm: diese Optionen gelten nicht für das nGPT-Layout</translation>
    </message>
    <message>
        <source>Train this configuration (Ctrl+R)</source>
        <translation>Diese Konfiguration trainieren (Strg+R)</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Deaktiviert: %1</translation>
    </message>
    <message numerus="yes">
        <source>Queue all %n run(s) of %1</source>
        <translation>
            <numerusform>Den %n Lauf von %1 einreihen</numerusform>
            <numerusform>Alle %n Läufe von %1 einreihen</numerusform>
        </translation>
    </message>
    <message>
        <source>Open an experiment file first (Ctrl+O)</source>
        <translation>Zuerst eine Experimentdatei öffnen (Strg+O)</translation>
    </message>
    <message>
        <source>The runs of %1; Run experiment queues them all</source>
        <translation>Die Läufe von %1; „Experiment starten“ reiht alle ein</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Saved; %1 is set by the experiment's sweep, so the form's value was not saved</source>
        <translation>Gespeichert; %1 wird vom Sweep des Experiments gesetzt, der Wert aus dem Formular wurde daher nicht gespeichert</translation>
    </message>
<message>
        <source>Placement — Xiong et al. 2020</source>
        <translation>Platzierung — Xiong et al. 2020</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>Anordnung</translation>
    </message>
    <message>
        <source>post: x ← LN(x + F(x))  (Post-LN, Vaswani et al.)
pre: x ← x + F(LN(x))  (Pre-LN, Xiong et al. 2020)
ngpt: h ← norm(h + α(norm(F(h)) − h))  (nGPT, Loshchilov et al.)</source>
        <translation>post: x ← LN(x + F(x))  (Post-LN, Vaswani et al.)
pre: x ← x + F(LN(x))  (Pre-LN, Xiong et al. 2020)
ngpt: h ← norm(h + α(norm(F(h)) − h))  (nGPT, Loshchilov et al.)</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>Abschließende Norm</translation>
    </message>
    <message>
        <source>A norm before the output layer: logits = LN(x_{L})·W_{out}ᵀ (Pre-LN; Xiong et al. 2020)</source>
        <translation>Eine Normierung vor der Ausgabeschicht: logits = LN(x_{L})·W_{out}ᵀ (Pre-LN; Xiong et al. 2020)</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>Norm</translation>
    </message>
    <message>
        <source>layernorm: γ⊙(x − μ)/σ + β
rmsnorm: γ⊙x/√(mean(x²) + ε)</source>
        <translation>layernorm: γ⊙(x − μ)/σ + β
rmsnorm: γ⊙x/√(mean(x²) + ε)</translation>
    </message>
    <message>
        <source>NormFormer — Shleifer et al.</source>
        <translation>NormFormer — Shleifer et al.</translation>
    </message>
    <message>
        <source>HeadScale</source>
        <translation>HeadScale</translation>
    </message>
    <message>
        <source>h_{i} ← γ_{i}·h_{i}, γ ∈ ℝ^{H}, init 1: Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O} (NormFormer §3)</source>
        <translation>h_{i} ← γ_{i}·h_{i}, γ ∈ ℝ^{H}, Startwert 1: Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O} (NormFormer §3)</translation>
    </message>
    <message>
        <source>HeadScale placement</source>
        <translation>Position von HeadScale</translation>
    </message>
    <message>
        <source>before_out_proj: the paper's form
after_out_proj: fairseq's (scales per-head slices of the output)</source>
        <translation>before_out_proj: die Form des Artikels
after_out_proj: die von fairseq (skaliert die Kopf-Abschnitte der Ausgabe)</translation>
    </message>
    <message>
        <source>Post-attention LN</source>
        <translation>LN nach der Attention</translation>
    </message>
    <message>
        <source>o ← LN(Attention(LN(x))·W_{O}) before the residual add (NormFormer §3)</source>
        <translation>o ← LN(Attention(LN(x))·W_{O}) vor der Residual-Addition (NormFormer §3)</translation>
    </message>
    <message>
        <source>FFN LN</source>
        <translation>FFN-LN</translation>
    </message>
    <message>
        <source>f ← FC2(LN(act(FC1(LN(x))))): a LayerNorm over d_ff after the activation (NormFormer §3)</source>
        <translation>f ← FC2(LN(act(FC1(LN(x))))): eine LayerNorm über d_ff nach der Aktivierung (NormFormer §3)</translation>
    </message>
    <message>
        <source>ResScale</source>
        <translation>ResScale</translation>
    </message>
    <message>
        <source>x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^{d}, init 1 (NormFormer §3; helps small models)</source>
        <translation>x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^{d}, Startwert 1 (NormFormer §3; hilft kleinen Modellen)</translation>
    </message>
    <message>
        <source>DeepNorm — Wang et al.</source>
        <translation>DeepNorm — Wang et al.</translation>
    </message>
    <message>
        <source>Residual α</source>
        <translation>Residual-α</translation>
    </message>
    <message>
        <source>x ← LN(α·x + F(x)), α = (2N)^{1/4} for an N-layer decoder (DeepNet)</source>
        <translation>x ← LN(α·x + F(x)), α = (2N)^{1/4} für einen Decoder mit N Schichten (DeepNet)</translation>
    </message>
    <message>
        <source>Override of DeepNorm's residual weight α</source>
        <translation>Überschreibt DeepNorms Residualgewicht α</translation>
    </message>
    <message>
        <source>β-scaled init</source>
        <translation>β-skalierte Initialisierung</translation>
    </message>
    <message>
        <source>Xavier-normal init with gain β = (8N)^{−1/4} on W_{v}, W_{O}, FC1, FC2 and 1 on W_{q}, W_{k} (DeepNet)</source>
        <translation>Xavier-Normal-Initialisierung mit Faktor β = (8N)^{−1/4} für W_{v}, W_{O}, FC1, FC2 und 1 für W_{q}, W_{k} (DeepNet)</translation>
    </message>
    <message>
        <source>Override of DeepNorm's init gain β</source>
        <translation>Überschreibt DeepNorms Initialisierungsfaktor β</translation>
    </message>
    <message>
        <source>BranchNorm — Liu et al.</source>
        <translation>BranchNorm — Liu et al.</translation>
    </message>
    <message>
        <source>Branch factor α_{t}</source>
        <translation>Zweigfaktor α_{t}</translation>
    </message>
    <message>
        <source>x ← LN(x + α_{t}·F(x)), α_{t} rising from 0 to 1 over T steps (BranchNorm §3)</source>
        <translation>x ← LN(x + α_{t}·F(x)), α_{t} steigt über T Schritte von 0 auf 1 (BranchNorm §3)</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>linear: α_{t} = min(1, t/T) (the paper's)
exp, sigmoid: lab-defined (docs/DECISIONS.md)</source>
        <translation>linear: α_{t} = min(1, t/T) (die des Artikels)
exp, sigmoid: vom Labor definiert (docs/DECISIONS.md)</translation>
    </message>
    <message>
        <source>T (steps)</source>
        <translation>T (Schritte)</translation>
    </message>
    <message>
        <source>Steps until α_{t} = 1; the paper uses 4000</source>
        <translation>Schritte bis α_{t} = 1; der Artikel verwendet 4000</translation>
    </message>
    <message>
        <source>nGPT — Loshchilov et al.</source>
        <translation>nGPT — Loshchilov et al.</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK-Norm</translation>
    </message>
    <message>
        <source>q ← s_{qk}⊙norm(q), k ← s_{qk}⊙norm(k) per head, softmax scale √d_{k}</source>
        <translation>q ← s_{qk}⊙norm(q), k ← s_{qk}⊙norm(k) je Kopf, Softmax-Skala √d_{k}</translation>
    </message>
    <message>
        <source>Eigen learning rates</source>
        <translation>Eigen-Lernraten</translation>
    </message>
    <message>
        <source>Learn α_{A}, α_{M} in h ← norm(h + α(norm(F(h)) − h)); init 0.05, scale 1/√d</source>
        <translation>α_{A}, α_{M} in h ← norm(h + α(norm(F(h)) − h)) lernen; Startwert 0.05, Skala 1/√d</translation>
    </message>
    <message>
        <source>s_qk, s_u, s_v, s_z</source>
        <translation>s_qk, s_u, s_v, s_z</translation>
    </message>
    <message>
        <source>Learned scalers of queries/keys, the gated MLP and the logits (init/scale re-parameterised)</source>
        <translation>Gelernte Skalierer der Queries/Keys, des Gated-MLP und der Logits (Start/Skala umparametrisiert)</translation>
    </message>
    <message>
        <source>Weight renormalisation</source>
        <translation>Gewichts-Renormierung</translation>
    </message>
    <message>
        <source>Put every embedding-dimension vector back on the unit sphere after each step</source>
        <translation>Jeden Vektor der Einbettungsdimension nach jedem Schritt auf die Einheitssphäre zurücksetzen</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Blocks N</source>
        <translation>Blöcke N</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>Must divide d_model</source>
        <translation>Muss d_model teilen</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation>d_ff</translation>
    </message>
    <message>
        <source>MLP width</source>
        <translation>MLP-Breite</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <source>Bytes per sequence</source>
        <translation>Bytes pro Sequenz</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>Aktivierung</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positionen</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>Geteilte Einbettungen</translation>
    </message>
    <message>
        <source>Embeddings × √d</source>
        <translation>Einbettungen × √d</translation>
    </message>
    <message>
        <source>Multiply token embeddings by √d_model (Vaswani et al. §3.4; fairseq).
Xiong et al.'s analysis assumes inputs with E‖x₀‖² ≈ d.</source>
        <translation>Token-Einbettungen mit √d_model multiplizieren (Vaswani et al. §3.4; fairseq).
Die Analyse von Xiong et al. setzt Eingaben mit E‖x₀‖² ≈ d voraus.</translation>
    </message>
    <message>
        <source>Biases</source>
        <translation>Biases</translation>
    </message>
    <message>
        <source>Init</source>
        <translation>Initialisierung</translation>
    </message>
    <message>
        <source>normal: N(0, 0.02), residual outputs N(0, 0.02/√(2L)) (GPT-2)
xavier: Xavier-uniform (Vaswani; Xiong)</source>
        <translation>normal: N(0, 0.02), Residualausgaben N(0, 0.02/√(2L)) (GPT-2)
xavier: Xavier-gleichverteilt (Vaswani; Xiong)</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>corpus: English fortunes
file: any file, byte-level
markov: synthetic, with a known loss floor</source>
        <translation>corpus: englische Fortunes
file: beliebige Datei, byteweise
markov: synthetisch, mit bekannter Verlustuntergrenze</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Markov order</source>
        <translation>Markov-Ordnung</translation>
    </message>
    <message>
        <source>Markov alphabet</source>
        <translation>Markov-Alphabet</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>Gewichtsabnahme</translation>
    </message>
    <message>
        <source>Never on norms, biases or scalers</source>
        <translation>Nie auf Normen, Biases oder Skalierer</translation>
    </message>
    <message>
        <source>β₂</source>
        <translation>β₂</translation>
    </message>
    <message>
        <source>Gradient clip</source>
        <translation>Gradientenbegrenzung</translation>
    </message>
    <message>
        <source>Global L2 norm; 0 disables</source>
        <translation>Globale L2-Norm; 0 schaltet ab</translation>
    </message>
    <message>
        <source>ramp: the LR stability test — the rate grows by the increment each step until the loss diverges (NormFormer §4)</source>
        <translation>ramp: der LR-Stabilitätstest — die Rate wächst jeden Schritt um das Inkrement, bis der Verlust divergiert (NormFormer §4)</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>Aufwärmschritte</translation>
    </message>
    <message>
        <source>Ramp increment</source>
        <translation>Rampenschritt</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>fp32; tf32: GPU tensor cores, fp32 elsewhere; bf16: mixed precision, fp32 weights</source>
        <translation>fp32; tf32: Tensor-Kerne der GPU, sonst fp32; bf16: gemischte Genauigkeit, Gewichte in fp32</translation>
    </message>
    <message>
        <source>CUDA graph</source>
        <translation>CUDA-Graph</translation>
    </message>
    <message>
        <source>On a GPU, the training step captured once and replayed with one launch; auto: where the run allows it</source>
        <translation>Auf einer GPU wird der Trainingsschritt einmal aufgezeichnet und mit einem Start wiederholt; auto: wo der Lauf es erlaubt</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>CPU threads LibTorch uses; 0: all cores</source>
        <translation>CPU-Threads, die LibTorch nutzt; 0: alle Kerne</translation>
    </message>
    <message>
        <source>Validate every</source>
        <translation>Validieren alle</translation>
    </message>
    <message>
        <source>Probes (every N steps; 0: off)</source>
        <translation>Sonden (alle N Schritte; 0: aus)</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>Hidden states</source>
        <translation>Verborgene Zustände</translation>
    </message>
    <message>
        <source>Gains</source>
        <translation>Verstärkungen</translation>
    </message>
    <message>
        <source>Condition numbers</source>
        <translation>Konditionszahlen</translation>
    </message>
    <message>
        <source>α (empty: (2N)^{1/4})</source>
        <translation>α (leer: (2N)^{1/4})</translation>
    </message>
    <message>
        <source>β (empty: (8N)^{−1/4})</source>
        <translation>β (leer: (8N)^{−1/4})</translation>
    </message>
    <message>
        <source>Scale the branches' step</source>
        <translation>Zweigschritt skalieren</translation>
    </message>
    <message>
        <source>Lab-defined: Adam's step of F's weights scaled by α_{t} too. The paper scales F's output, which slows SGD's step but not Adam's</source>
        <translation>Vom Labor definiert: auch Adams Schritt der Gewichte von F mit α_{t} skaliert. Der Artikel skaliert die Ausgabe von F; das verlangsamt den Schritt von SGD, nicht den von Adam</translation>
    </message>
</context>
<context>
    <name>normlab::Heatmap</name>
    <message>
        <source>step %1 · layer %2</source>
        <translation>Schritt %1 · Schicht %2</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>kein Wert</translation>
    </message>
    <message>
        <source>no data yet</source>
        <translation>noch keine Daten</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
</context>
<context>
    <name>normlab::LineChart</name>
    <message>
        <source>every curve is hidden: click a run in the legend to show it, then export</source>
        <translation>alle Kurven sind ausgeblendet: einen Lauf in der Legende anklicken, um ihn zu zeigen, dann exportieren</translation>
    </message>
    <message>
        <source>non-finite value</source>
        <translation>nicht endlicher Wert</translation>
    </message>
    <message>
        <source> (log)</source>
        <translation> (log)</translation>
    </message>
    <message>
        <source>x: %1</source>
        <translation>x: %1</translation>
    </message>
    <message>
        <source>y: %1</source>
        <translation>y: %1</translation>
    </message>
    <message>
        <source>%L1 points → %L2 drawn</source>
        <translation>%L1 Punkte → %L2 gezeichnet</translation>
    </message>
    <message>
        <source> · %L1 non-finite (▲)</source>
        <translation> · %L1 nicht endlich (▲)</translation>
    </message>
    <message>
        <source> · %L1 values ≤ 0 not shown on the log axis</source>
        <translation> · %L1 Werte ≤ 0 auf der log. Achse nicht gezeigt</translation>
    </message>
    <message>
        <source> · %L1 points at x ≤ 0 not shown on the log x axis</source>
        <translation> · %L1 Punkte bei x ≤ 0 auf der log. x-Achse nicht gezeigt</translation>
    </message>
    <message numerus="yes">
        <source> · %n line(s) hidden (click the legend to show)</source>
        <translation>
            <numerusform> · %n Linie ausgeblendet (Klick in die Legende zeigt sie)</numerusform>
            <numerusform> · %n Linien ausgeblendet (Klick in die Legende zeigt sie)</numerusform>
        </translation>
    </message>
    <message>
        <source> · the first %1 of %2 runs drawn (at most %3 lines on screen; an export draws them all)</source>
        <translation> · die ersten %1 von %2 Läufen gezeichnet (höchstens %3 Linien am Bildschirm; ein Export zeichnet alle)</translation>
    </message>
    <message>
        <source> · zoomed (right-click to zoom out)</source>
        <translation> · vergrößert (Rechtsklick verkleinert)</translation>
    </message>
    <message>
        <source>Show “%1”</source>
        <translation>„%1“ zeigen</translation>
    </message>
    <message>
        <source>Hide “%1”</source>
        <translation>„%1“ ausblenden</translation>
    </message>
    <message>
        <source>Show only “%1”</source>
        <translation>Nur „%1“ zeigen</translation>
    </message>
    <message>
        <source>Show all lines</source>
        <translation>Alle Linien zeigen</translation>
    </message>
    <message>
        <source> (smoothed %1)</source>
        <translation> (geglättet %1)</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… und %1 weitere</translation>
    </message>
</context>
<context>
    <name>normlab::MainWindow</name>
    <message>
        <source>Run store</source>
        <translation>Laufspeicher</translation>
    </message>
    <message>
        <source>%1

NormLab opens the default store instead.</source>
        <translation>%1

NormLab öffnet stattdessen den Standardspeicher.</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>NormLab</source>
        <translation>NormLab</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Filter runs (name, scheme, status, tags, notes; lr&gt;=1e-3, val&lt;3.2)…</source>
        <translation>Läufe filtern (Name, Schema, Status, Tags, Notizen; lr&gt;=1e-3, val&lt;3.2)…</translation>
    </message>
    <message>
        <source>Runs — select several to compare</source>
        <translation>Läufe — mehrere wählen zum Vergleichen</translation>
    </message>
    <message>
        <source>Settings that differ</source>
        <translation>Abweichende Einstellungen</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open experiment…</source>
        <translation>Experiment ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open experiment</source>
        <translation>Experiment öffnen</translation>
    </message>
    <message>
        <source>Experiments (*.json)</source>
        <translation>Experimente (*.json)</translation>
    </message>
    <message>
        <source>&amp;Save experiment…</source>
        <translation>Experiment &amp;speichern…</translation>
    </message>
    <message>
        <source>&amp;Recent experiments</source>
        <translation>&amp;Zuletzt geöffnete Experimente</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(noch keine)</translation>
    </message>
    <message>
        <source>Open run &amp;store…</source>
        <translation>Lauf&amp;speicher öffnen…</translation>
    </message>
    <message>
        <source>Open run store</source>
        <translation>Laufspeicher öffnen</translation>
    </message>
    <message>
        <source>Run stores (*.sqlite *.db);;All files (*)</source>
        <translation>Laufspeicher (*.sqlite *.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Compac&amp;t store…</source>
        <translation>Speicher verdich&amp;ten…</translation>
    </message>
    <message>
        <source>&amp;Export chart…</source>
        <translation>Diagramm &amp;exportieren…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export &amp;panel…</source>
        <translation>&amp;Tafel exportieren…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>Run &amp;experiment</source>
        <translation>&amp;Experiment starten</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <source>Train on a &amp;server…</source>
        <translation>Auf einem &amp;Server trainieren…</translation>
    </message>
    <message>
        <source>Reproduce paper &amp;findings…</source>
        <translation>Befunde der &amp;Paper reproduzieren…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Log-scale loss</source>
        <translation>&amp;Logarithmischer Verlust</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>&amp;Smoothing</source>
        <translation>&amp;Glättung</translation>
    </message>
    <message>
        <source>Ctrl+M</source>
        <translation>Ctrl+M</translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>&amp;Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About NormLab</source>
        <translation>&amp;Über NormLab</translation>
    </message>
    <message>
        <source>About NormLab</source>
        <translation>Über NormLab</translation>
    </message>
    <message>
        <source>&lt;h3&gt;NormLab %1&lt;/h3&gt;&lt;p&gt;A lab for the normalization of Transformer language models: Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm and nGPT, each component a toggle.&lt;/p&gt;&lt;p&gt;Qt %2 · LibTorch %3 · SQLite %4 · %5&lt;/p&gt;</source>
        <translation>&lt;h3&gt;NormLab %1&lt;/h3&gt;&lt;p&gt;Ein Labor für die Normierung von Transformer-Sprachmodellen: Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm und nGPT, jede Komponente ein Schalter.&lt;/p&gt;&lt;p&gt;Qt %2 · LibTorch %3 · SQLite %4 · %5&lt;/p&gt;</translation>
    </message>
    <message>
        <source>CUDA available</source>
        <translation>CUDA verfügbar</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>nur CPU</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Kann nicht starten: %1</translation>
    </message>
    <message>
        <source>This store is open read-only: open a writable store to train (File → Open run store).</source>
        <translation>Dieser Speicher ist schreibgeschützt geöffnet: zum Trainieren einen beschreibbaren Speicher öffnen (Datei → Laufspeicher öffnen).</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Open an experiment file first (Ctrl+O).</source>
        <translation>Zuerst eine Experimentdatei öffnen (Strg+O).</translation>
    </message>
    <message>
        <source>Run experiment</source>
        <translation>Experiment starten</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>A run is training. Cancel it and quit? Its data so far stays in the store.</source>
        <translation>Ein Lauf trainiert. Abbrechen und beenden? Seine bisherigen Daten bleiben im Speicher.</translation>
    </message>
    <message>
        <source># (id)</source>
        <translation># (ID)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Run #%1 is training; cancel it first.</source>
        <translation>Lauf #%1 trainiert; zuerst abbrechen.</translation>
    </message>
    <message>
        <source>Run #%1 is training in another process (pid %2 on %3): stop it there first (normlab-cli cancel %1), then delete it.</source>
        <translation>Lauf #%1 wird in einem anderen Prozess trainiert (PID %2 auf %3): dort zuerst anhalten (normlab-cli cancel %1), dann löschen.</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) and all their data? This cannot be undone.</source>
        <translation>
            <numerusform>%n Lauf und alle seine Daten löschen? Das lässt sich nicht rückgängig machen.</numerusform>
            <numerusform>%n Läufe und alle ihre Daten löschen? Das lässt sich nicht rückgängig machen.</numerusform>
        </translation>
    </message>
    <message>
        <source>A run mirrored from a server is deleted here only: it stays on the server (and trains on there, if it is training).</source>
        <translation>Ein von einem Server gespiegelter Lauf wird nur hier gelöscht: Auf dem Server bleibt er (und trainiert dort weiter, falls er trainiert).</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>Läufe löschen</translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s); their checkpoints freed %1.</source>
        <translation>
            <numerusform>%n Lauf gelöscht; seine Checkpoints gaben %1 frei.</numerusform>
            <numerusform>%n Läufe gelöscht; ihre Checkpoints gaben %1 frei.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s).</source>
        <translation>
            <numerusform>%n Lauf gelöscht.</numerusform>
            <numerusform>%n Läufe gelöscht.</numerusform>
        </translation>
    </message>
    <message>
        <source>This store is open read-only: it cannot be compacted.</source>
        <translation>Dieser Speicher ist schreibgeschützt geöffnet: Er kann nicht verdichtet werden.</translation>
    </message>
    <message>
        <source>The store has %1 free: nothing to compact.</source>
        <translation>Der Speicher hat %1 frei: nichts zu verdichten.</translation>
    </message>
    <message>
        <source>Compact store</source>
        <translation>Speicher verdichten</translation>
    </message>
    <message>
        <source>Deleted runs left %1 free in the store's file. Give it back to the disk now? The store is rewritten in one step; a run training meanwhile waits for it.</source>
        <translation>Gelöschte Läufe haben %1 frei in der Speicherdatei hinterlassen. Jetzt an die Festplatte zurückgeben? Der Speicher wird in einem Schritt neu geschrieben; ein Lauf, der währenddessen trainiert, wartet darauf.</translation>
    </message>
    <message>
        <source>Store compacted: %1 → %2.</source>
        <translation>Speicher verdichtet: %1 → %2.</translation>
    </message>
    <message>
        <source>Select two or more runs (Ctrl+click) to see the settings in which they differ.</source>
        <translation>Zwei oder mehr Läufe wählen (Strg+Klick), um die abweichenden Einstellungen zu sehen.</translation>
    </message>
    <message>
        <source>As stored: %1</source>
        <translation>Wie gespeichert: %1</translation>
    </message>
    <message>
        <source>%1: each run has its scheme's value</source>
        <translation>%1: jeder Lauf hat den Wert seines Schemas</translation>
    </message>
    <message>
        <source>%1 switched on in the form</source>
        <translation>%1 im Formular eingeschaltet</translation>
    </message>
    <message>
        <source>%1 switched off in the form</source>
        <translation>%1 im Formular ausgeschaltet</translation>
    </message>
    <message>
        <source>Save experiment</source>
        <translation>Experiment speichern</translation>
    </message>
    <message>
        <source>The experiment form has changes not saved in a file.</source>
        <translation>Das Experiment-Formular hat Änderungen, die in keiner Datei gespeichert sind.</translation>
    </message>
    <message>
        <source>Save them in an experiment file? If you do not decide now (Cancel), nothing is lost; Discard forgets them.</source>
        <translation>In einer Experimentdatei speichern? Wenn Sie jetzt nicht entscheiden (Abbrechen), geht nichts verloren; Verwerfen vergisst sie.</translation>
    </message>
    <message>
        <source>The experiment form is as you left it, with changes not saved in a file</source>
        <translation>Das Experiment-Formular ist so, wie Sie es verlassen haben, mit Änderungen, die in keiner Datei gespeichert sind</translation>
    </message>
    <message numerus="yes">
        <source>Following runs on %n server(s) again</source>
        <translation>
            <numerusform>Verfolge wieder Läufe auf %n Server</numerusform>
            <numerusform>Verfolge wieder Läufe auf %n Servern</numerusform>
        </translation>
    </message>
    <message>
        <source>The form cannot be trained: %1</source>
        <translation>Das Formular kann nicht trainiert werden: %1</translation>
    </message>
    <message>
        <source>Cannot write a temporary file: %1</source>
        <translation>Temporäre Datei kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Sweep submitted to Slurm through %1; its runs appear as its tasks start</source>
        <translation>Sweep über %1 bei Slurm eingereicht; seine Läufe erscheinen, sobald seine Aufgaben starten</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) started on %1; following them live</source>
        <translation>
            <numerusform>%n Lauf auf %1 gestartet; wird live verfolgt</numerusform>
            <numerusform>%n Läufe auf %1 gestartet; werden live verfolgt</numerusform>
        </translation>
    </message>
    <message>
        <source>Fetch weights from the server</source>
        <translation>Gewichte vom Server holen</translation>
    </message>
    <message>
        <source>safetensors (*.safetensors)</source>
        <translation>safetensors (*.safetensors)</translation>
    </message>
    <message>
        <source>Fetching the weights of %1 from %2…</source>
        <translation>Hole die Gewichte von %1 von %2…</translation>
    </message>
    <message>
        <source>Weights written to %1</source>
        <translation>Gewichte nach %1 geschrieben</translation>
    </message>
    <message>
        <source>Slurm job of %1 on %2 cancelled</source>
        <translation>Slurm-Job von %1 auf %2 abgebrochen</translation>
    </message>
    <message>
        <source>Fetching the weights of %1 from %2: %3…</source>
        <translation>Hole die Gewichte von %1 von %2: %3…</translation>
    </message>
    <message>
        <source>Fetching the weights of %1 from %2: %3 of %4 (%5%)…</source>
        <translation>Hole die Gewichte von %1 von %2: %3 von %4 (%5 %)…</translation>
    </message>
    <message>
        <source>run %1 there</source>
        <translation>Lauf %1 dort</translation>
    </message>
    <message>
        <source>%1 is %2: nothing to stop</source>
        <translation>%1 ist %2: nichts anzuhalten</translation>
    </message>
    <message>
        <source>%1: its process on the server is gone; Resume continues it</source>
        <translation>%1: Sein Prozess auf dem Server ist beendet; Fortsetzen setzt ihn fort</translation>
    </message>
    <message>
        <source>%1 is %2</source>
        <translation>%1 ist %2</translation>
    </message>
    <message>
        <source>Stopped on %1: %2</source>
        <translation>Auf %1 angehalten: %2</translation>
    </message>
    <message>
        <source>Resumed on %1: %2</source>
        <translation>Auf %1 fortgesetzt: %2</translation>
    </message>
    <message>
        <source>Stopping on %1…</source>
        <translation>Halte auf %1 an…</translation>
    </message>
    <message>
        <source>Resuming on %1…</source>
        <translation>Setze auf %1 fort…</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>Run #%1 %2: step %3/%4 (%5%) · loss %6 · ETA %7</source>
        <translation>Lauf #%1 %2: Schritt %3/%4 (%5 %) · Verlust %6 · Restzeit %7</translation>
    </message>
    <message>
        <source> · MFU %1%</source>
        <translation> · MFU %1 %</translation>
    </message>
    <message>
        <source> (its file was deleted or replaced)</source>
        <translation> (seine Datei wurde gelöscht oder ersetzt)</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation> (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Store: %1 · UI latency p50 %2 ms, p99 %3 ms</source>
        <translation>Speicher: %1 · UI-Latenz p50 %2 ms, p99 %3 ms</translation>
    </message>
    <message>
        <source>Run #%1: %2</source>
        <translation>Lauf #%1: %2</translation>
    </message>
    <message>
        <source>Run #%1 %2: %3</source>
        <translation>Lauf #%1 %2: %3</translation>
    </message>
    <message>
        <source>Rename run</source>
        <translation>Lauf umbenennen</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Comma-separated tags</source>
        <translation>Tags, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Notes on run #%1</source>
        <translation>Notizen zu Lauf #%1</translation>
    </message>
    <message>
        <source>Colour of run #%1</source>
        <translation>Farbe von Lauf #%1</translation>
    </message>
    <message>
        <source>This store is open read-only: runs cannot be resumed into it.</source>
        <translation>Dieser Speicher ist schreibgeschützt geöffnet: Läufe können darin nicht fortgesetzt werden.</translation>
    </message>
    <message>
        <source>resuming</source>
        <translation>wird fortgesetzt</translation>
    </message>
    <message>
        <source>Not resumed (finished, training or queued): %1</source>
        <translation>Nicht fortgesetzt (fertig, im Training oder eingereiht): %1</translation>
    </message>
    <message>
        <source>Settings of run #%1 loaded into the form</source>
        <translation>Einstellungen von Lauf #%1 ins Formular geladen</translation>
    </message>
    <message>
        <source>%1: &lt;, &lt;=, &gt; and &gt;= compare numbers, and "%2" is not one</source>
        <translation>%1: &lt;, &lt;=, &gt; und &gt;= vergleichen Zahlen, und „%2“ ist keine</translation>
    </message>
    <message>
        <source>%1: no run has a column or setting "%2"</source>
        <translation>%1: kein Lauf hat eine Spalte oder Einstellung „%2“</translation>
    </message>
    <message>
        <source>%1: no run has a column or setting "%2"; did you mean %3?</source>
        <translation>%1: kein Lauf hat eine Spalte oder Einstellung „%2“; war %3 gemeint?</translation>
    </message>
    <message>
        <source>Co&amp;py as text</source>
        <translation>Als Text &amp;kopieren</translation>
    </message>
    <message numerus="yes">
        <source>Copied %n run(s) as tab-separated text</source>
        <translation>
            <numerusform>%n Lauf als tabulatorgetrennter Text kopiert</numerusform>
            <numerusform>%n Läufe als tabulatorgetrennter Text kopiert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n setting(s) as tab-separated text</source>
        <translation>
            <numerusform>%n Einstellung als tabulatorgetrennter Text kopiert</numerusform>
            <numerusform>%n Einstellungen als tabulatorgetrennter Text kopiert</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Resume from checkpoint</source>
        <translation>Ab Checkpoint &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Stop on the &amp;server</source>
        <translation>Auf dem &amp;Server anhalten</translation>
    </message>
    <message>
        <source>&amp;Fetch weights from the server…</source>
        <translation>Gewichte vom Server &amp;holen…</translation>
    </message>
    <message>
        <source>Cancel the Slurm &amp;job</source>
        <translation>Slurm-&amp;Job abbrechen</translation>
    </message>
    <message>
        <source>&amp;Load settings into the form</source>
        <translation>Einstellungen ins Formular &amp;laden</translation>
    </message>
    <message>
        <source>&amp;Write text with the weights…</source>
        <translation>Mit den Gewichten Text sch&amp;reiben…</translation>
    </message>
    <message>
        <source>Re&amp;name…</source>
        <translation>Umbe&amp;nennen…</translation>
    </message>
    <message>
        <source>&amp;Tags…</source>
        <translation>&amp;Tags…</translation>
    </message>
    <message>
        <source>N&amp;otes…</source>
        <translation>N&amp;otizen…</translation>
    </message>
    <message>
        <source>&amp;Colour…</source>
        <translation>&amp;Farbe…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>Runs of a compared store are read-only</source>
        <translation>Läufe eines Vergleichsspeichers sind schreibgeschützt</translation>
    </message>
    <message>
        <source>NormLab — %1 (read-only)</source>
        <translation>NormLab — %1 (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Finish or cancel the queued runs before switching stores.</source>
        <translation>Eingereihte Läufe vor dem Wechsel des Speichers beenden oder abbrechen.</translation>
    </message>
    <message>
        <source>&amp;Compare with another store…</source>
        <translation>Mit anderem Speicher &amp;vergleichen…</translation>
    </message>
    <message>
        <source>Compare with run stores</source>
        <translation>Mit Laufspeichern vergleichen</translation>
    </message>
    <message>
        <source>Stop comparing stores</source>
        <translation>Speichervergleich beenden</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 existiert nicht.</translation>
    </message>
    <message>
        <source>%1 is the store this window has open.</source>
        <translation>%1 ist der Speicher, den dieses Fenster geöffnet hat.</translation>
    </message>
    <message>
        <source>%1 is already open for comparison.</source>
        <translation>%1 ist bereits zum Vergleich geöffnet.</translation>
    </message>
    <message>
        <source>Comparing with %1 (read-only): its runs are in the run table</source>
        <translation>Vergleich mit %1 (schreibgeschützt): seine Läufe stehen in der Lauftabelle</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>&amp;System folgen</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>Export panel</source>
        <translation>Tafel exportieren</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>CSV (the curves shown, every point)</source>
        <translation>CSV (die gezeigten Kurven, jeder Punkt)</translation>
    </message>
    <message>
        <source>as on screen</source>
        <translation>wie am Bildschirm</translation>
    </message>
    <message>
        <source>single column (89 mm)</source>
        <translation>einspaltig (89 mm)</translation>
    </message>
    <message>
        <source>double column (183 mm)</source>
        <translation>zweispaltig (183 mm)</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>benutzerdefiniert</translation>
    </message>
    <message>
        <source>as the figure needs</source>
        <translation>so hoch wie nötig</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Resolution (PNG, DPI)</source>
        <translation>Auflösung (PNG, DPI)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>Höhe</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>Schriftgröße</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Wrote %1: the blocks' text at %2 pt, to fit the width</source>
        <translation>%1 geschrieben: die Schrift der Blöcke in %2 pt, damit sie in die Breite passen</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 geschrieben</translation>
    </message>
    <message>
        <source>&lt;p&gt;Shows the runs that match every word, ignoring case (as &lt;code&gt;normlab-cli list&lt;/code&gt;):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;a text in the name, scheme, status, a tag, the notes, the server, the created time or the store;&lt;/li&gt;&lt;li&gt;&lt;b&gt;key op value&lt;/b&gt;, op one of &lt;code&gt;= != &amp;lt; &amp;lt;= &amp;gt; &amp;gt;=&lt;/code&gt; or &lt;code&gt;:&lt;/code&gt; (contains): &lt;code&gt;id&lt;/code&gt;, &lt;code&gt;name&lt;/code&gt;, &lt;code&gt;scheme&lt;/code&gt;, &lt;code&gt;status&lt;/code&gt;, &lt;code&gt;tag&lt;/code&gt;, &lt;code&gt;notes&lt;/code&gt;, &lt;code&gt;server&lt;/code&gt;, &lt;code&gt;steps&lt;/code&gt;, &lt;code&gt;val&lt;/code&gt; (the Val loss column) or a setting, by its path or last part: &lt;code&gt;optim.lr&lt;/code&gt;, &lt;code&gt;lr&lt;/code&gt;, &lt;code&gt;n_layers&lt;/code&gt;.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Examples: &lt;code&gt;ngpt val&amp;lt;3.2&lt;/code&gt; · &lt;code&gt;lr&amp;gt;=1e-3 status=finished&lt;/code&gt; · &lt;code&gt;tag:paper n_layers=48&lt;/code&gt; · &lt;code&gt;"seed 2"&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;Zeigt die Läufe, die auf jedes Wort passen, ohne Rücksicht auf Groß- und Kleinschreibung (wie &lt;code&gt;normlab-cli list&lt;/code&gt;):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;ein Text in Name, Schema, Status, einem Tag, den Notizen, dem Server, der Erstellungszeit oder dem Speicher;&lt;/li&gt;&lt;li&gt;&lt;b&gt;Schlüssel Op Wert&lt;/b&gt;, Op eines von &lt;code&gt;= != &amp;lt; &amp;lt;= &amp;gt; &amp;gt;=&lt;/code&gt; oder &lt;code&gt;:&lt;/code&gt; (enthält): &lt;code&gt;id&lt;/code&gt;, &lt;code&gt;name&lt;/code&gt;, &lt;code&gt;scheme&lt;/code&gt;, &lt;code&gt;status&lt;/code&gt;, &lt;code&gt;tag&lt;/code&gt;, &lt;code&gt;notes&lt;/code&gt;, &lt;code&gt;server&lt;/code&gt;, &lt;code&gt;steps&lt;/code&gt;, &lt;code&gt;val&lt;/code&gt; (die Spalte Val.-Verlust) oder eine Einstellung, über ihren Pfad oder letzten Teil: &lt;code&gt;optim.lr&lt;/code&gt;, &lt;code&gt;lr&lt;/code&gt;, &lt;code&gt;n_layers&lt;/code&gt;.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Beispiele: &lt;code&gt;ngpt val&amp;lt;3.2&lt;/code&gt; · &lt;code&gt;lr&amp;gt;=1e-3 status=finished&lt;/code&gt; · &lt;code&gt;tag:paper n_layers=48&lt;/code&gt; · &lt;code&gt;"seed 2"&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>&amp;Bereiche</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>Anordnung &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>Restzeit</translation>
    </message>
    <message numerus="yes">
        <source>Trains on the CPU (%n thread(s))</source>
        <translation>
            <numerusform>Trainiert auf der CPU (%n Thread)</numerusform>
            <numerusform>Trainiert auf der CPU (%n Threads)</numerusform>
        </translation>
    </message>
    <message>
        <source>Trains on %1</source>
        <translation>Trainiert auf %1</translation>
    </message>
    <message>
        <source>Trains on %1 (%2 of %3 GiB free)</source>
        <translation>Trainiert auf %1 (%2 von %3 GiB frei)</translation>
    </message>
<message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Write text…</source>
        <translation>Text schreiben…</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>ssh asks:</source>
        <translation>ssh fragt:</translation>
    </message>
    <message>
        <source>NormLab — ssh</source>
        <translation>NormLab — ssh</translation>
    </message>
</context>
<context>
    <name>normlab::RemoteControl</name>
    <message>
        <source>cannot run %1: %2</source>
        <translation>%1 kann nicht ausgeführt werden: %2</translation>
    </message>
    <message>
        <source>%1: every run followed has ended</source>
        <translation>%1: Alle verfolgten Läufe sind beendet</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>Run #%1 %2 on %3</source>
        <translation>Lauf #%1 %2 auf %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 after %n step(s), validation loss %3</source>
        <translation>
            <numerusform>%1: %2 nach %n Schritt, Validierungsverlust %3</numerusform>
            <numerusform>%1: %2 nach %n Schritten, Validierungsverlust %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 after %n step(s)</source>
        <translation>
            <numerusform>%1: %2 nach %n Schritt</numerusform>
            <numerusform>%1: %2 nach %n Schritten</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: step %2/%3 (%4%) · loss %5</source>
        <translation>%1: Schritt %2/%3 (%4 %) · Verlust %5</translation>
    </message>
    <message>
        <source> · validation %1</source>
        <translation> · Validierung %1</translation>
    </message>
    <message>
        <source> · %1 tokens/s</source>
        <translation> · %1 Tokens/s</translation>
    </message>
    <message>
        <source> · MFU %1%</source>
        <translation> · MFU %1 %</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · Restzeit %1</translation>
    </message>
    <message numerus="yes">
        <source>Following %n run(s) on %1</source>
        <translation>
            <numerusform>Verfolge %n Lauf auf %1</numerusform>
            <numerusform>Verfolge %n Läufe auf %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Following the Slurm sweep in %1 on %2 (%n task store(s))</source>
        <translation>
            <numerusform>Verfolge den Slurm-Sweep in %1 auf %2 (%n Aufgabenspeicher)</numerusform>
            <numerusform>Verfolge den Slurm-Sweep in %1 auf %2 (%n Aufgabenspeicher)</numerusform>
        </translation>
    </message>
    <message>
        <source>Reconnected to %1; following again from the last row held</source>
        <translation>Wieder mit %1 verbunden; verfolge weiter ab der letzten erhaltenen Zeile</translation>
    </message>
    <message numerus="yes">
        <source>Connection to %1 lost (%2); reconnecting in %n s</source>
        <translation>
            <numerusform>Verbindung zu %1 verloren (%2); neuer Versuch in %n s</numerusform>
            <numerusform>Verbindung zu %1 verloren (%2); neuer Versuch in %n s</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: no run left to follow (each run mirrored from it has ended)</source>
        <translation>%1: kein Lauf mehr zu verfolgen (jeder von dort gespiegelte Lauf ist beendet)</translation>
    </message>
    <message numerus="yes">
        <source> (+%n more running)</source>
        <translation>
            <numerusform> (+%n weiterer läuft)</numerusform>
            <numerusform> (+%n weitere laufen)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::RemoteDialog</name>
    <message>
        <source>Train on a server</source>
        <translation>Auf einem Server trainieren</translation>
    </message>
    <message>
        <source>A host, user@host or an alias of ~/.ssh/config; your ssh, keys and agent are used as they are</source>
        <translation>Ein Host, user@host oder ein Alias aus ~/.ssh/config; Ihr ssh, Ihre Schlüssel und Ihr Agent werden unverändert verwendet</translation>
    </message>
    <message>
        <source>The server's normlab-cli: a full path, or a name its non-interactive shell finds on its PATH</source>
        <translation>normlab-cli des Servers: ein vollständiger Pfad oder ein Name, den seine nicht-interaktive Shell im PATH findet</translation>
    </message>
    <message>
        <source>its default store</source>
        <translation>sein Standardspeicher</translation>
    </message>
    <message>
        <source>Server (ssh):</source>
        <translation>Server (ssh):</translation>
    </message>
    <message>
        <source>NormLab on the server:</source>
        <translation>NormLab auf dem Server:</translation>
    </message>
    <message>
        <source>Store on the server:</source>
        <translation>Speicher auf dem Server:</translation>
    </message>
    <message>
        <source>empty: train on the server itself</source>
        <translation>leer: auf dem Server selbst trainieren</translation>
    </message>
    <message>
        <source>A folder on the cluster: the runs are submitted there as a Slurm job array (the server is its login node), each task into a store of its own; every task is followed live</source>
        <translation>Ein Ordner auf dem Cluster: Die Läufe werden dort als Slurm-Job-Array eingereicht (der Server ist sein Login-Knoten), jede Aufgabe in einen eigenen Speicher; jede Aufgabe wird live verfolgt</translation>
    </message>
    <message>
        <source>Slurm sweep folder:</source>
        <translation>Slurm-Sweep-Ordner:</translation>
    </message>
    <message>
        <source>The opened experiment (none is open)</source>
        <translation>Das geöffnete Experiment (keines ist geöffnet)</translation>
    </message>
    <message>
        <source>The experiment "%1", every run</source>
        <translation>Das Experiment „%1“, alle Läufe</translation>
    </message>
    <message>
        <source>The run the form describes</source>
        <translation>Der Lauf, den das Formular beschreibt</translation>
    </message>
    <message>
        <source>Train:</source>
        <translation>Trainieren:</translation>
    </message>
    <message>
        <source>The runs train on the server detached: closing the window, sleep or a dropped network do not stop them. They appear here live, marked with the server's name.</source>
        <translation>Die Läufe trainieren losgelöst auf dem Server: Schließen des Fensters, Ruhezustand oder ein Netzabbruch halten sie nicht an. Sie erscheinen hier live, mit dem Namen des Servers.</translation>
    </message>
    <message>
        <source>&amp;Check server</source>
        <translation>Server &amp;prüfen</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Server: give a host, user@host or an alias of ~/.ssh/config.</source>
        <translation>Server: einen Host, user@host oder einen Alias aus ~/.ssh/config angeben.</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>Prüfe %1…</translation>
    </message>
    <message>
        <source>Starting on %1…</source>
        <translation>Starte auf %1…</translation>
    </message>
    <message>
        <source>NormLab %1 on %2 (LibTorch %3)</source>
        <translation>NormLab %1 auf %2 (LibTorch %3)</translation>
    </message>
    <message>
        <source>store %1 (created by the first run)</source>
        <translation>Speicher %1 (wird beim ersten Lauf angelegt)</translation>
    </message>
    <message>
        <source>store %1</source>
        <translation>Speicher %1</translation>
    </message>
    <message>
        <source>%1, %2 MiB (%3 MiB free)</source>
        <translation>%1, %2 MiB (%3 MiB frei)</translation>
    </message>
    <message>
        <source>no CUDA GPU: runs train on its CPU</source>
        <translation>keine CUDA-GPU: Läufe trainieren auf seiner CPU</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s): %1; but its LibTorch has no CUDA: runs train on its CPU</source>
        <translation>
            <numerusform>%n GPU: %1; aber seine LibTorch hat kein CUDA: Läufe trainieren auf seiner CPU</numerusform>
            <numerusform>%n GPUs: %1; aber seine LibTorch hat kein CUDA: Läufe trainieren auf seiner CPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s): %1</source>
        <translation>
            <numerusform>%n GPU: %1</numerusform>
            <numerusform>%n GPUs: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::ReportDialog</name>
    <message>
        <source>Reproduce paper findings</source>
        <translation>Befunde der Paper reproduzieren</translation>
    </message>
    <message>
        <source>Trains the experiments' runs into the open store (finished runs with the same configuration are reused), measures each finding, draws its figures and writes a Markdown/HTML report with a verdict per finding.</source>
        <translation>Trainiert die Läufe der Experimente in den geöffneten Speicher (fertige Läufe mit gleicher Konfiguration werden wiederverwendet), misst jeden Befund, zeichnet seine Abbildungen und schreibt einen Markdown/HTML-Bericht mit einem Urteil je Befund.</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>Experimente</translation>
    </message>
    <message>
        <source>Experiments (*.json)</source>
        <translation>Experimente (*.json)</translation>
    </message>
    <message>
        <source>The lab's sizes train every finding on a CPU in minutes; an experiment's named scale (gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU) trains larger models longer, into the same store beside the other runs</source>
        <translation>Die Größen des Labors trainieren jeden Befund in Minuten auf einer CPU; eine benannte Skala eines Experiments (gpu: die Größen aus docs/REPRODUCTION-GPU.md, für eine GPU) trainiert größere Modelle länger, in denselben Speicher neben die anderen Läufe</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Report folder</source>
        <translation>Berichtsordner</translation>
    </message>
    <message>
        <source>The report's progress appears here.</source>
        <translation>Hier erscheint der Fortschritt des Berichts.</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Open report</source>
        <translation>Bericht öffnen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Model size</source>
        <translation>Modellgröße</translation>
    </message>
    <message>
        <source>The lab's sizes (a CPU, minutes)</source>
        <translation>Die Größen des Labors (eine CPU, Minuten)</translation>
    </message>
    <message>
        <source>gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU</source>
        <translation>gpu: die Größen aus docs/REPRODUCTION-GPU.md, für eine GPU</translation>
    </message>
    <message>
        <source>%1: a scale the experiments define</source>
        <translation>%1: eine Skala, die die Experimente festlegen</translation>
    </message>
    <message>
        <source> — no findings to report</source>
        <translation> — keine Befunde zu berichten</translation>
    </message>
    <message>
        <source> — findings %1</source>
        <translation> — Befunde %1</translation>
    </message>
    <message numerus="yes">
        <source>; %n run(s)</source>
        <translation>
            <numerusform>; %n Lauf</numerusform>
            <numerusform>; %n Läufe</numerusform>
        </translation>
    </message>
    <message>
        <source>, up to %1 GiB each</source>
        <translation>, bis zu %1 GiB je Lauf</translation>
    </message>
    <message>
        <source> — cannot be used: %1</source>
        <translation> — nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Training and measuring…</source>
        <translation>Trainiere und messe…</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Bericht geschrieben nach %1</translation>
    </message>
    <message>
        <source>Stopped; finished runs are kept and reused next time</source>
        <translation>Angehalten; fertige Läufe bleiben erhalten und werden beim nächsten Mal wiederverwendet</translation>
    </message>
    <message>
        <source>Finished with errors (exit code %1); see the log</source>
        <translation>Mit Fehlern beendet (Exit-Code %1); siehe Protokoll</translation>
    </message>
    <message>
        <source>Cannot start: %1 cannot be used at this size; remove it or pick another size</source>
        <translation>Start nicht möglich: %1 ist in dieser Größe nicht verwendbar; entfernen Sie es oder wählen Sie eine andere Größe</translation>
    </message>
</context>
<context>
    <name>normlab::RunTableModel</name>
    <message>
        <source>Cannot read a run store: %1. Its runs are shown as they were last read.</source>
        <translation>Ein Laufspeicher kann nicht gelesen werden: %1. Seine Läufe werden so gezeigt, wie sie zuletzt gelesen wurden.</translation>
    </message>
    <message>
        <source> @%1</source>
        <translation> @%1</translation>
    </message>
    <message>
        <source>this store</source>
        <translation>dieser Speicher</translation>
    </message>
    <message>
        <source>Opened for comparison, read-only: %1</source>
        <translation>Zum Vergleich geöffnet, schreibgeschützt: %1</translation>
    </message>
    <message>
        <source>Trains on %1 (run %2 of %3 there); followed live into this store over ssh</source>
        <translation>Trainiert auf %1 (dort Lauf %2 von %3); live über ssh in diesen Speicher verfolgt</translation>
    </message>
    <message>
        <source>The latest validation loss, measured at step %1: the run has no final one yet.</source>
        <translation>Der letzte Validierungsverlust, gemessen bei Schritt %1: der Lauf hat noch keinen endgültigen.</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>divergiert</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>The validation loss at the run's end; in italics, the latest of a run that has none yet (training, stopped)</source>
        <translation>Der Validierungsverlust am Ende des Laufs; kursiv der letzte eines Laufs, der noch keinen hat (trainiert, angehalten)</translation>
    </message>
    <message>
        <source>Steps trained; a run short of its steps shows them as done / total</source>
        <translation>Trainierte Schritte; ein Lauf, dem Schritte fehlen, zeigt sie als erledigt / gesamt</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>Val.-Verlust</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Speicher</translation>
    </message>
</context>
<context>
    <name>normlab::SampleDialog</name>
    <message>
        <source>The weights run #%1 writes with</source>
        <translation>Die Gewichte, mit denen Lauf #%1 schreibt</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt);;All files (*)</source>
        <translation>Checkpoints (*.pt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 above this column writes with the weights of a checkpoint file.</source>
        <translation>%1 über dieser Spalte schreibt mit den Gewichten aus einer Checkpoint-Datei.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
    <message>
        <source>Done: the same prompt and seed write the same text again.</source>
        <translation>Fertig: derselbe Anfang und derselbe Seed schreiben wieder denselben Text.</translation>
    </message>
    <message>
        <source>Writing with run #%1: %2 of %3 bytes…</source>
        <translation>Schreibe mit Lauf #%1: %2 von %3 Bytes…</translation>
    </message>
    <message>
        <source>Write text with the runs' weights</source>
        <translation>Text mit den Gewichten der Läufe schreiben</translation>
    </message>
    <message>
        <source>&amp;Prompt:</source>
        <translation>&amp;Anfang:</translation>
    </message>
    <message>
        <source>&amp;Bytes:</source>
        <translation>&amp;Bytes:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatur:</translation>
    </message>
    <message>
        <source>Top &amp;k:</source>
        <translation>Top-&amp;k:</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>S&amp;eed:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Draw among the k likeliest bytes; all: every byte</source>
        <translation>Unter den k wahrscheinlichsten Bytes ziehen; alle: jedes Byte</translation>
    </message>
    <message>
        <source>0: always the likeliest byte; higher: more surprising bytes</source>
        <translation>0: immer das wahrscheinlichste Byte; höher: überraschendere Bytes</translation>
    </message>
    <message>
        <source>The text every run continues; it reads bytes, so any text will do</source>
        <translation>Der Text, den jeder Lauf fortsetzt; das Modell liest Bytes, also taugt jeder Text</translation>
    </message>
    <message>
        <source>Keep &amp;half the window past the context</source>
        <translation>Jenseits des Kontexts die Hä&amp;lfte behalten</translation>
    </message>
    <message>
        <source>Once the text is longer than the model's context, keep the last half of what it read and go on from there, rather than read the whole context again for every byte: many times faster for big models; each byte then reads half a context to a whole one</source>
        <translation>Sobald der Text länger als der Kontext des Modells ist, die letzte Hälfte des Gelesenen behalten und von dort weitermachen, statt für jedes Byte den ganzen Kontext neu zu lesen: bei großen Modellen um ein Vielfaches schneller; jedes Byte liest dann einen halben bis ganzen Kontext</translation>
    </message>
    <message>
        <source>&amp;Write</source>
        <translation>Sch&amp;reiben</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>An&amp;halten</translation>
    </message>
    <message>
        <source>weights of step %1</source>
        <translation>Gewichte von Schritt %1</translation>
    </message>
    <message>
        <source>weights of step %1 from %2</source>
        <translation>Gewichte von Schritt %1 aus %2</translation>
    </message>
    <message>
        <source>weights from %1</source>
        <translation>Gewichte aus %1</translation>
    </message>
    <message>
        <source>Weights…</source>
        <translation>Gewichte…</translation>
    </message>
    <message>
        <source>Write with the weights of a checkpoint file (.pt) instead of the run's own: one that normlab-cli remote fetch --checkpoint brought from a server, or a copy of an earlier one</source>
        <translation>Mit den Gewichten einer Checkpoint-Datei (.pt) statt den eigenen des Laufs schreiben: einer, die normlab-cli remote fetch --checkpoint von einem Server geholt hat, oder der Kopie einer früheren</translation>
    </message>
    <message numerus="yes">
        <source>%n more selected run(s) left out: the first %1 are shown side by side.</source>
        <translation>
            <numerusform>%n weiterer ausgewählter Lauf weggelassen: Die ersten %1 stehen nebeneinander.</numerusform>
            <numerusform>%n weitere ausgewählte Läufe weggelassen: Die ersten %1 stehen nebeneinander.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::SweepChart</name>
    <message>
        <source>none yet</source>
        <translation>noch keines</translation>
    </message>
<message>
        <source>Select two or more runs — a sweep — to see which of their settings moved the outcome.</source>
        <translation>Wählen Sie zwei oder mehr Läufe – einen Sweep –, um zu sehen, welche ihrer Einstellungen das Ergebnis bewegt haben.</translation>
    </message>
    <message>
        <source>These runs' settings are all the same: select runs that differ to compare them.</source>
        <translation>Die Einstellungen dieser Läufe sind alle gleich: Wählen Sie Läufe, die sich unterscheiden, um sie zu vergleichen.</translation>
    </message>
    <message>
        <source>Every setting that differs among these runs is hidden (%1): show one to compare them.</source>
        <translation>Jede Einstellung, in der sich diese Läufe unterscheiden, ist ausgeblendet (%1): Zeigen Sie eine, um sie zu vergleichen.</translation>
    </message>
    <message>
        <source>Not shown: %1.</source>
        <translation>Nicht gezeigt: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n setting(s) the scheme implies (%1)</source>
        <translation>
            <numerusform>%n vom Schema bestimmte Einstellung (%1)</numerusform>
            <numerusform>%n vom Schema bestimmte Einstellungen (%1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hidden (%1)</source>
        <translation>
            <numerusform>%n ausgeblendet (%1)</numerusform>
            <numerusform>%n ausgeblendet (%1)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::TrainingWorker</name>
    <message>
        <source>removed from the queue</source>
        <translation>aus der Warteschlange entfernt</translation>
    </message>
    <message>
        <source>skipped: it was no longer queued when its turn came</source>
        <translation>übersprungen: stand nicht mehr in der Warteschlange, als er an der Reihe war</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Run store file.</source>
        <translation>Datei des Laufspeichers.</translation>
    </message>
    <message>
        <source>Experiment to open.</source>
        <translation>Zu öffnendes Experiment.</translation>
    </message>
    <message>
        <source>Start the opened experiment at once.</source>
        <translation>Das geöffnete Experiment sofort starten.</translation>
    </message>
    <message>
        <source>Train, save screenshots into DIR, quit.</source>
        <translation>Trainieren, Bildschirmfotos in DIR speichern, beenden.</translation>
    </message>
    <message>
        <source>Train and print the UI latency.</source>
        <translation>Trainieren und die Latenz der Oberfläche ausgeben.</translation>
    </message>
    <message>
        <source>UI language (en, de, zh_CN).</source>
        <translation>Sprache der Oberfläche (en, de, zh_CN).</translation>
    </message>
    <message>
        <source>NormLab: normalization in Transformer language models
normlab report EXPERIMENT.json... --out DIR: reproduce the papers' findings (see normlab report --help)
normlab figure RUN... --out FILE.pdf: one chart of stored runs for a paper (see normlab figure --help)</source>
        <translation>NormLab: Normierung in Transformer-Sprachmodellen
normlab report EXPERIMENT.json... --out DIR: die Befunde der Artikel reproduzieren (siehe normlab report --help)
normlab figure RUN... --out FILE.pdf: ein Diagramm gespeicherter Läufe für einen Artikel (siehe normlab figure --help)</translation>
    </message>
    <message>
        <source>Open another run store beside it, read-only, to compare its runs (repeatable).</source>
        <translation>Einen weiteren Laufspeicher schreibgeschützt daneben öffnen, um seine Läufe zu vergleichen (wiederholbar).</translation>
    </message>
    <message>
        <source>With --screenshots: the window's size, WIDTHxHEIGHT (default 1600x1000).</source>
        <translation>Mit --screenshots: die Größe des Fensters, BREITExHÖHE (Vorgabe 1600x1000).</translation>
    </message>
    <message>
        <source>Colours: system (the platform's, the default), light or dark; remembered from View → Theme otherwise.</source>
        <translation>Farben: system (die der Plattform, voreingestellt), light oder dark; sonst die unter Ansicht → Farbschema gemerkten.</translation>
    </message>
</context>
<context>
    <name>normlab::BlockDiagram</name>
    <message>
        <source>A row per byte; every vector along d has norm 1 (the embeddings, the weights' rows or columns, renormalized after every optimizer step, and the hidden state h); no positions added (RoPE in the attention)</source>
        <translation>Eine Zeile je Byte; jeder Vektor entlang d hat die Norm 1 (die Einbettungen, die Zeilen oder Spalten der Gewichte, nach jedem Optimiererschritt renormiert, und der verborgene Zustand h); keine Positionen addiert (RoPE in der Attention)</translation>
    </message>
    <message>
        <source>q, k, v · RoPE</source>
        <translation>q, k, v · RoPE</translation>
    </message>
    <message>
        <source>q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ, split into heads; RoPE rotates q and k</source>
        <translation>q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ, in Köpfe geteilt; RoPE dreht q und k</translation>
    </message>
    <message>
        <source>s_{qk} ⊙ q, k</source>
        <translation>s_{qk} ⊙ q, k</translation>
    </message>
    <message>
        <source>q and k each normalized per head and scaled by the learned s_{qk} (qk_norm off: scaled only)</source>
        <translation>q und k je Kopf normiert und mit dem gelernten s_{qk} skaliert (qk_norm aus: nur skaliert)</translation>
    </message>
    <message>
        <source>softmax(q kᵀ · √d_{h} + causal mask) v per head: q and k are unit vectors, so the product is a cosine</source>
        <translation>softmax(q kᵀ · √d_{h} + kausale Maske) v je Kopf: q und k sind Einheitsvektoren, ihr Produkt ist ein Kosinus</translation>
    </message>
    <message>
        <source>W_{O}</source>
        <translation>W_{O}</translation>
    </message>
    <message>
        <source>The output projection, its columns on the sphere</source>
        <translation>Die Ausgabeprojektion, ihre Spalten auf der Sphäre</translation>
    </message>
    <message>
        <source>norm → h_{A}</source>
        <translation>norm → h_{A}</translation>
    </message>
    <message>
        <source>h_{A} = norm(attention output): the sub-layer's suggestion, on the sphere</source>
        <translation>h_{A} = norm(Ausgabe der Attention): der Vorschlag der Teilschicht, auf der Sphäre</translation>
    </message>
    <message>
        <source>FC1 → u, g</source>
        <translation>FC1 → u, g</translation>
    </message>
    <message>
        <source>u, g = FC1 h: d → 2 × d_{ff}</source>
        <translation>u, g = FC1 h: d → 2 × d_{ff}</translation>
    </message>
    <message>
        <source>u ⊙ SiLU(g)</source>
        <translation>u ⊙ SiLU(g)</translation>
    </message>
    <message>
        <source>SwiGLU</source>
        <translation>SwiGLU</translation>
    </message>
    <message>
        <source>FC2</source>
        <translation>FC2</translation>
    </message>
    <message>
        <source>FC2: d_{ff} → d, its columns on the sphere</source>
        <translation>FC2: d_{ff} → d, seine Spalten auf der Sphäre</translation>
    </message>
    <message>
        <source>norm → h_{M}</source>
        <translation>norm → h_{M}</translation>
    </message>
    <message>
        <source>h_{M} = norm(MLP output)</source>
        <translation>h_{M} = norm(Ausgabe des MLP)</translation>
    </message>
    <message>
        <source>Eigen learning rate: how far h moves towards the sub-layer's suggestion, learned per dimension (init 0.05)</source>
        <translation>Eigen-Lernrate: wie weit h sich auf den Vorschlag der Teilschicht zubewegt, je Dimension gelernt (Start 0,05)</translation>
    </message>
    <message>
        <source>Eigen learning rate, fixed at its initial value (eigen_lr off)</source>
        <translation>Eigen-Lernrate, fest auf ihrem Startwert (eigen_lr aus)</translation>
    </message>
    <message>
        <source>%1 ⊙</source>
        <translation>%1 ⊙</translation>
    </message>
    <message>
        <source>(1 − %1) ⊙</source>
        <translation>(1 − %1) ⊙</translation>
    </message>
    <message>
        <source>h + α ⊙ (h_{F} − h): h keeps 1 − α of itself</source>
        <translation>h + α ⊙ (h_{F} − h): h behält 1 − α von sich</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>Norm</translation>
    </message>
    <message>
        <source>h back onto the unit sphere after each update (nGPT eq. 10, 11)</source>
        <translation>h nach jeder Aktualisierung zurück auf die Einheitssphäre (nGPT Gl. 10, 11)</translation>
    </message>
    <message>
        <source>logits = s_{z} ⊙ h W_{out}ᵀ</source>
        <translation>logits = s_{z} ⊙ h W_{out}ᵀ</translation>
    </message>
    <message>
        <source>The output embedding (untied, rows on the sphere), the logits scaled by the learned s_{z}</source>
        <translation>Die Ausgabe-Einbettung (nicht gekoppelt, Zeilen auf der Sphäre), die Logits mit dem gelernten s_{z} skaliert</translation>
    </message>
    <message>
        <source>embedding × √d</source>
        <translation>Einbettung × √d</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>Einbettung</translation>
    </message>
    <message>
        <source>Pre-LN: the sub-layer's input normalized, x ← x + F(LN(x)); the stream itself never is</source>
        <translation>Pre-LN: die Eingabe der Teilschicht wird normiert, x ← x + F(LN(x)); der Strom selbst nie</translation>
    </message>
    <message>
        <source>Post-LN: the stream normalized after each sum, x ← LN(x + F(x))</source>
        <translation>Post-LN: der Strom wird nach jeder Summe normiert, x ← LN(x + F(x))</translation>
    </message>
    <message>
        <source>softmax(q kᵀ / √d_{h} + causal mask) v per head, q, k, v = x W_{qkv}ᵀ</source>
        <translation>softmax(q kᵀ / √d_{h} + kausale Maske) v je Kopf, q, k, v = x W_{qkv}ᵀ</translation>
    </message>
    <message>
        <source>NormFormer's HeadScale: each head's output times its learned γ_{i}, init 1</source>
        <translation>HeadScale von NormFormer: die Ausgabe jedes Kopfes mal sein gelerntes γ_{i}, Start 1</translation>
    </message>
    <message>
        <source>The output projection: Concat(heads) W_{O}ᵀ</source>
        <translation>Die Ausgabeprojektion: Concat(Köpfe) W_{O}ᵀ</translation>
    </message>
    <message>
        <source>NormFormer's post-attention LN, over d, on the attention's output</source>
        <translation>Post-Attention-LN von NormFormer, über d, auf der Ausgabe der Attention</translation>
    </message>
    <message>
        <source>FC1</source>
        <translation>FC1</translation>
    </message>
    <message>
        <source>FC1: d → d_{ff} (SwiGLU: → 2 × d_{ff}, u and g)</source>
        <translation>FC1: d → d_{ff} (SwiGLU: → 2 × d_{ff}, u und g)</translation>
    </message>
    <message>
        <source>The activation (model.activation)</source>
        <translation>Die Aktivierung (model.activation)</translation>
    </message>
    <message>
        <source>NormFormer's FFN LN, over d_{ff}, after the activation</source>
        <translation>FFN-LN von NormFormer, über d_{ff}, nach der Aktivierung</translation>
    </message>
    <message>
        <source>FC2: d_{ff} → d</source>
        <translation>FC2: d_{ff} → d</translation>
    </message>
    <message>
        <source>× α_{t}</source>
        <translation>× α_{t}</translation>
    </message>
    <message>
        <source>BranchNorm: the sub-layer's output times α_{t}, rising from 0 to 1 over T steps</source>
        <translation>BranchNorm: die Ausgabe der Teilschicht mal α_{t}, das in T Schritten von 0 auf 1 steigt</translation>
    </message>
    <message>
        <source>× α = %1</source>
        <translation>× α = %1</translation>
    </message>
    <message>
        <source>DeepNorm: the residual times α = (2N)^¼, x ← LN(α·x + F(x))</source>
        <translation>DeepNorm: das Residuum mal α = (2N)^¼, x ← LN(α·x + F(x))</translation>
    </message>
    <message>
        <source>NormFormer's ResScale: the MLP's residual times a learned λ ∈ ℝᵈ, init 1</source>
        <translation>ResScale von NormFormer: das Residuum des MLP mal ein gelerntes λ ∈ ℝᵈ, Start 1</translation>
    </message>
    <message>
        <source>The final norm before the output layer</source>
        <translation>Die letzte Norm vor der Ausgabeschicht</translation>
    </message>
    <message>
        <source>logits = x Eᵀ</source>
        <translation>logits = x Eᵀ</translation>
    </message>
    <message>
        <source>logits = x W_{out}ᵀ</source>
        <translation>logits = x W_{out}ᵀ</translation>
    </message>
    <message>
        <source>The output layer, tied to the token embedding</source>
        <translation>Die Ausgabeschicht, an die Token-Einbettung gekoppelt</translation>
    </message>
    <message>
        <source>The output layer, its own matrix (untied)</source>
        <translation>Die Ausgabeschicht, eine eigene Matrix (nicht gekoppelt)</translation>
    </message>
    <message>
        <source>%1 (click to switch it off in the form)</source>
        <translation>%1 (Klick schaltet es im Formular aus)</translation>
    </message>
    <message>
        <source>Off: %1 (click to switch it on in the form)</source>
        <translation>Aus: %1 (Klick schaltet es im Formular ein)</translation>
    </message>
    <message numerus="yes">
        <source>× %n layer(s)</source>
        <translation>
            <numerusform>× %n Schicht</numerusform>
            <numerusform>× %n Schichten</numerusform>
        </translation>
    </message>
    <message>
        <source> (off)</source>
        <translation> (aus)</translation>
    </message>
    <message>
        <source>embedding, ‖·‖ = 1</source>
        <translation>Einbettung, ‖·‖ = 1</translation>
    </message>
    <message>
        <source>s_{qk} ⊙ norm(q, k)</source>
        <translation>s_{qk} ⊙ norm(q, k)</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>s_{u} ⊙ u, s_{v} ⊙ g</source>
        <translation>s_{u} ⊙ u, s_{v} ⊙ g</translation>
    </message>
    <message>
        <source>The learned scalers s_{u} and s_{v} (fixed at 1 with scalers off); g also × √d</source>
        <translation>Die gelernten Skalierer s_{u} und s_{v} (bei ausgeschalteten Skalierern fest 1); g zudem × √d</translation>
    </message>
    <message>
        <source>embedding × √d + positions</source>
        <translation>Einbettung × √d + Positionen</translation>
    </message>
    <message>
        <source>embedding + positions</source>
        <translation>Einbettung + Positionen</translation>
    </message>
    <message>
        <source>embedding × √d + sin. positions</source>
        <translation>Einbettung × √d + sin. Positionen</translation>
    </message>
    <message>
        <source>embedding + sin. positions</source>
        <translation>Einbettung + sin. Positionen</translation>
    </message>
    <message>
        <source>x₀ = E[byte] (× √d with embed_scale), plus absolute positions where the model has them: learned, or sinusoidal (sin.); RoPE is in the attention</source>
        <translation>x₀ = E[Byte] (× √d mit embed_scale), plus absolute Positionen, wo das Modell sie hat: gelernt oder sinusförmig (sin.); RoPE steckt in der Attention</translation>
    </message>
    <message>
        <source>attention · RoPE</source>
        <translation>Attention · RoPE</translation>
    </message>
    <message>
        <source>HeadScale γ</source>
        <translation>HeadScale γ</translation>
    </message>
    <message>
        <source>ResScale λ ⊙</source>
        <translation>ResScale λ ⊙</translation>
    </message>
</context>
<context>
    <name>normlab::Figure</name>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>unknown format %1; use png, svg, pdf or csv</source>
        <translation>unbekanntes Format %1; png, svg, pdf oder csv verwenden</translation>
    </message>
    <message>
        <source>▲ non-finite (%1)</source>
        <translation>▲ nicht endlich (%1)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
    <message>
        <source>another program is writing it now; try again once that has finished</source>
        <translation>ein anderes Programm schreibt gerade in diese Datei; versuchen Sie es erneut, wenn es fertig ist</translation>
    </message>
    <message>
        <source>it is write-protected (%1); make it writable or choose another name</source>
        <translation>sie ist schreibgeschützt (%1); machen Sie sie beschreibbar oder wählen Sie einen anderen Namen</translation>
    </message>
    <message>
        <source>the folder %1 does not exist</source>
        <translation>der Ordner %1 existiert nicht</translation>
    </message>
    <message>
        <source>the folder %1 cannot be written in (%2): a file is first saved there as %3 and then renamed, so that a save cut short never leaves half a file; choose a folder you can write</source>
        <translation>in den Ordner %1 kann nicht geschrieben werden (%2): eine Datei wird dort zuerst als %3 gespeichert und dann umbenannt, damit ein abgebrochenes Speichern nie eine halbe Datei hinterlässt; wählen Sie einen Ordner, in den Sie schreiben dürfen</translation>
    </message>
    <message>
        <source>%1, an unfinished save's file, is in the way and cannot be written (%2); remove it or choose another name</source>
        <translation>%1, die Datei eines nicht beendeten Speicherns, ist im Weg und kann nicht geschrieben werden (%2); entfernen Sie sie oder wählen Sie einen anderen Namen</translation>
    </message>
</context>
</TS>