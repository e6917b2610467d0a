NAME          VOL1
ROWS
 N  COST
 E  B1C1....
 E  B2C1....
 E  B3C1....
 E  B1C2....
 E  B2C2....
 E  B3C2....
 E  B2C3....
 E  B3C3....
 E  B1CF....
 E  B1NL....
 E  B1NL.RON
 E  B1LHS...
 E  B1LHSPAR
 E  B1LHSARO
 E  B1LHSRON
 E  B1LHSSUL
 E  B1LHSSPG
 E  B1NH....
 E  B1NH.PAR
 E  B1NH.ARO
 E  B1NH.SUL
 E  B1NH.SPG
 E  B1NDS...
 E  B1NDSPAR
 E  B1NDSARO
 E  B1NDSSUL
 E  B1NDSSPG
 E  B1DS....
 E  B1DS.SUL
 E  B1DS.SPG
 E  B1GO....
 E  B1GO.SUL
 E  B1GO.SPG
 E  B1RD....
 E  B1RD.SUL
 E  B1RD.SPG
 E  B1CF.PC1
 E  K1CU
 E  B2CF....
 E  B2NL....
 E  B2NL.RON
 E  B2LHS...
 E  B2LHSPAR
 E  B2LHSARO
 E  B2LHSRON
 E  B2LHSSUL
 E  B2LHSSPG
 E  B2NH....
 E  B2NH.PAR
 E  B2NH.ARO
 E  B2NH.SUL
 E  B2NH.SPG
 E  B2NDS...
 E  B2NDSPAR
 E  B2NDSARO
 E  B2NDSSUL
 E  B2NDSSPG
 E  B2DS....
 E  B2DS.SUL
 E  B2DS.SPG
 E  B2GO....
 E  B2GO.SUL
 E  B2GO.SPG
 E  B2RD....
 E  B2RD.SUL
 E  B2RD.SPG
 E  B2CF.PC1
 E  K2CU
 E  B3CF....
 E  B3CF.PC2
 E  B3NL....
 E  B3NL.RON
 E  B3LHS...
 E  B3LHSPAR
 E  B3LHSARO
 E  B3LHSRON
 E  B3LHSSUL
 E  B3LHSSPG
 E  B3NH....
 E  B3NH.PAR
 E  B3NH.ARO
 E  B3NH.SUL
 E  B3NH.SPG
 E  B3NDS...
 E  B3NDSPAR
 E  B3NDSARO
 E  B3NDSSUL
 E  B3NDSSPG
 E  B3DS....
 E  B3DS.SUL
 E  B3DS.SPG
 E  B3GO....
 E  B3GO.SUL
 E  B3GO.SPG
 E  B3RD....
 E  B3RD.SUL
 E  B3RD.SPG
 E  B3CF.PC1
 E  K3CU
 E  B1CF.PC2
 E  B2CF.PC2
 E  B1CF.PC3
 E  B2CF.PC3
 E  B3CF.PC3
 E  B1RF....
 E  B1RF.RON
 E  K1RF
 E  B2RF....
 E  B2RF.RON
 E  K2RF
 E  B3RF....
 E  B3RF.RON
 E  K3RF
 E  B1CN1...
 E  B1CL....
 E  B1CH....
 E  K1CC
 E  B2CN1...
 E  B2CL....
 E  B2CH....
 E  K2CC
 E  B3CN1...
 E  B3CL....
 E  B3CH....
 E  K3CC
 E  B1CN2...
 E  B2CN2...
 E  B3CN2...
 E  B2T1....
 E  B2T1.PC1
 E  B3T1....
 E  B3T1.PC1
 E  B1T2....
 E  B1T2.PC1
 E  B2T2....
 E  B2T2.PC1
 E  B3T2....
 E  B3T2.PC1
 E  B2T1.PC2
 E  B3T1.PC2
 E  B1T2.PC2
 E  B2T2.PC2
 E  B3T2.PC2
 E  B1T3....
 E  B1T3.PC2
 E  B2T3....
 E  B2T3.PC2
 E  B3T3....
 E  B3T3.PC2
 E  B2T2.PC3
 E  B3T2.PC3
 E  B2T3.PC3
 E  B3T3.PC3
 E  B1T1....
 E  B1T1.PC1
 E  B1T1.PC2
 E  B1PG....
 E  B1PG.RON
 E  B2PG....
 E  B2PG.RON
 E  B3PG....
 E  B3PG.RON
 E  B1RG....
 E  B1RG.RON
 E  B2RG....
 E  B2RG.RON
 E  B3RG....
 E  B3RG.RON
 E  B1HO....
 E  B1HO.SUL
 E  B1HO.SPG
 E  B2HO....
 E  B2HO.SUL
 E  B2HO.SPG
 E  B3HO....
 E  B3HO.SUL
 E  B3HO.SPG
 E  B1FO....
 E  B1FO.SUL
 E  B1FO.SPG
 E  B2FO....
 E  B2FO.SUL
 E  B2FO.SPG
 E  B3FO....
 E  B3FO.SUL
 E  B3FO.SPG
 E  B1CN....
 E  B1CN.RON
 E  B2CN....
 E  B2CN.RON
 E  B3CN....
 E  B3CN.RON
 E  Q1T1.PC1
 E  Q1T1.PC2
 E  B1T1.PC3
 E  B2T1.PC3
 E  Q1T1.PC3
 E  Q1T2.PC1
 E  Q1T2.PC2
 E  B1T2.PC3
 E  Q1T2.PC3
 E  B1T3.PC1
 E  B2T3.PC1
 E  Q1T3.PC1
 E  Q1T3.PC2
 E  B1T3.PC3
 E  Q1T3.PC3
 E  Q1CF.PC1
 E  Q1CF.PC2
 E  Q1CF.PC3
 E  Q1NL.RON
 E  Q1LHSPAR
 E  Q1LHSARO
 E  Q1LHSRON
 E  Q1LHSSUL
 E  Q1LHSSPG
 E  Q1NH.PAR
 E  Q1NH.ARO
 E  Q1NH.SUL
 E  Q1NH.SPG
 E  Q1NDSPAR
 E  Q1NDSARO
 E  Q1NDSSUL
 E  Q1NDSSPG
 E  Q1DS.SUL
 E  Q1DS.SPG
 E  Q1GO.SUL
 E  Q1GO.SPG
 E  Q1RD.SUL
 E  Q1RD.SPG
 E  Q1RF.RON
 E  Q1CN.RON
 E  Q1PG.RON
 E  Q1RG.RON
 E  Q1HO.SUL
 E  Q1HO.SPG
 E  Q1FO.SUL
 E  Q1FO.SPG
 E  Q2T1.PC1
 E  Q2T1.PC2
 E  B3T1.PC3
 E  Q2T1.PC3
 E  Q2T2.PC1
 E  Q2T2.PC2
 E  Q2T2.PC3
 E  B3T3.PC1
 E  Q2T3.PC1
 E  Q2T3.PC2
 E  Q2T3.PC3
 E  Q2CF.PC1
 E  Q2CF.PC2
 E  Q2CF.PC3
 E  Q2NL.RON
 E  Q2LHSPAR
 E  Q2LHSARO
 E  Q2LHSRON
 E  Q2LHSSUL
 E  Q2LHSSPG
 E  Q2NH.PAR
 E  Q2NH.ARO
 E  Q2NH.SUL
 E  Q2NH.SPG
 E  Q2NDSPAR
 E  Q2NDSARO
 E  Q2NDSSUL
 E  Q2NDSSPG
 E  Q2DS.SUL
 E  Q2DS.SPG
 E  Q2GO.SUL
 E  Q2GO.SPG
 E  Q2RD.SUL
 E  Q2RD.SPG
 E  Q2RF.RON
 E  Q2CN.RON
 E  Q2PG.RON
 E  Q2RG.RON
 E  Q2HO.SUL
 E  Q2HO.SPG
 E  Q2FO.SUL
 E  Q2FO.SPG
 E  Q3T1.PC1
 E  Q3T1.PC2
 E  Q3T1.PC3
 E  Q3T2.PC1
 E  Q3T2.PC2
 E  Q3T2.PC3
 E  Q3T3.PC1
 E  Q3T3.PC2
 E  Q3T3.PC3
 E  Q3CF.PC1
 E  Q3CF.PC2
 E  Q3CF.PC3
 E  Q3NL.RON
 E  Q3LHSPAR
 E  Q3LHSARO
 E  Q3LHSRON
 E  Q3LHSSUL
 E  Q3LHSSPG
 E  Q3NH.PAR
 E  Q3NH.ARO
 E  Q3NH.SUL
 E  Q3NH.SPG
 E  Q3NDSPAR
 E  Q3NDSARO
 E  Q3NDSSUL
 E  Q3NDSSPG
 E  Q3DS.SUL
 E  Q3DS.SPG
 E  Q3GO.SUL
 E  Q3GO.SPG
 E  Q3RD.SUL
 E  Q3RD.SPG
 E  Q3RF.RON
 E  Q3CN.RON
 E  Q3PG.RON
 E  Q3RG.RON
 E  Q3HO.SUL
 E  Q3HO.SPG
 E  Q3FO.SUL
 E  Q3FO.SPG
 E  V1RFSV
 E  V2RFSV
 E  V3RFSV
COLUMNS
    A1C1.     COST               31.   B1C1....            1.
    A2C1.     COST               31.   B2C1....            1.
    A3C1.     COST               31.   B3C1....            1.
    A1C2.     COST               33.   B1C2....            1.
    A2C2.     COST               33.   B2C2....            1.
    A3C2.     COST               33.   B3C2....            1.
    A2C3.     COST               32.   B2C3....            1.
    A3C3.     COST               32.   B3C3....            1.
    P1CUC1CF  B1CF....           -1.   B1NL....           .02
    P1CUC1CF  B1NL.RON           1.6   B1LHS...           .05
    P1CUC1CF  B1LHSPAR           3.5   B1LHSARO            .4
    P1CUC1CF  B1LHSRON          3.45   B1LHSSUL          .001
    P1CUC1CF  B1LHSSPG          .036   B1NH....           .16
    P1CUC1CF  B1NH.PAR          10.4   B1NH.ARO          1.92
    P1CUC1CF  B1NH.SUL         .0032   B1NH.SPG         .1184
    P1CUC1CF  B1NDS...           .07   B1NDSPAR          4.34
    P1CUC1CF  B1NDSARO           .98   B1NDSSUL         .0049
    P1CUC1CF  B1NDSSPG         .0539   B1DS....           .24
    P1CUC1CF  B1DS.SUL          .036   B1DS.SPG          .192
    P1CUC1CF  B1GO....           .27   B1GO.SUL          .216
    P1CUC1CF  B1GO.SPG         .2322   B1RD....           .18
    P1CUC1CF  B1RD.SUL          .288   B1RD.SPG         .1656
    P1CUC1CF  B1CF.PC1           -1.   K1CU               .25
    P2CUC1CF  B2CF....           -1.   B2NL....           .02
    P2CUC1CF  B2NL.RON           1.6   B2LHS...           .05
    P2CUC1CF  B2LHSPAR           3.5   B2LHSARO            .4
    P2CUC1CF  B2LHSRON          3.45   B2LHSSUL          .001
    P2CUC1CF  B2LHSSPG          .036   B2NH....           .16
    P2CUC1CF  B2NH.PAR          10.4   B2NH.ARO          1.92
    P2CUC1CF  B2NH.SUL         .0032   B2NH.SPG         .1184
    P2CUC1CF  B2NDS...           .07   B2NDSPAR          4.34
    P2CUC1CF  B2NDSARO           .98   B2NDSSUL         .0049
    P2CUC1CF  B2NDSSPG         .0539   B2DS....           .24
    P2CUC1CF  B2DS.SUL          .036   B2DS.SPG          .192
    P2CUC1CF  B2GO....           .27   B2GO.SUL          .216
    P2CUC1CF  B2GO.SPG         .2322   B2RD....           .18
    P2CUC1CF  B2RD.SUL          .288   B2RD.SPG         .1656
    P2CUC1CF  B2CF.PC1           -1.   K2CU                .1
    P3CUC1CF  B3CF....           -1.   B3CF.PC2        -.0001
    P3CUC1CF  B3NL....           .02   B3NL.RON           1.6
    P3CUC1CF  B3LHS...           .05   B3LHSPAR           3.5
    P3CUC1CF  B3LHSARO            .4   B3LHSRON          3.45
    P3CUC1CF  B3LHSSUL          .001   B3LHSSPG          .036
    P3CUC1CF  B3NH....           .16   B3NH.PAR          10.4
    P3CUC1CF  B3NH.ARO          1.92   B3NH.SUL         .0032
    P3CUC1CF  B3NH.SPG         .1184   B3NDS...           .07
    P3CUC1CF  B3NDSPAR          4.34   B3NDSARO           .98
    P3CUC1CF  B3NDSSUL         .0049   B3NDSSPG         .0539
    P3CUC1CF  B3DS....           .24   B3DS.SUL          .036
    P3CUC1CF  B3DS.SPG          .192   B3GO....           .27
    P3CUC1CF  B3GO.SUL          .216   B3GO.SPG         .2322
    P3CUC1CF  B3RD....           .18   B3RD.SUL          .288
    P3CUC1CF  B3RD.SPG         .1656   B3CF.PC1           -1.
    P3CUC1CF  K3CU             .0625
    P1CUC2CF  B1CF....           -1.   B1NL....           .09
    P1CUC2CF  B1NL.RON          6.84   B1LHS...           .05
    P1CUC2CF  B1LHSPAR          3.25   B1LHSARO            .3
    P1CUC2CF  B1LHSRON           3.5   B1LHSSUL         .0015
    P1CUC2CF  B1LHSSPG          .035   B1NH....           .23
    P1CUC2CF  B1NH.PAR          13.8   B1NH.ARO           2.3
    P1CUC2CF  B1NH.SUL         .0069   B1NH.SPG         .1725
    P1CUC2CF  B1NDS...           .05   B1NDSPAR          2.75
    P1CUC2CF  B1NDSARO            .7   B1NDSSUL          .004
    P1CUC2CF  B1NDSSPG          .039   B1DS....           .27
    P1CUC2CF  B1DS.SUL         .0432   B1DS.SPG         .2214
    P1CUC2CF  B1GO....           .18   B1GO.SUL          .198
    P1CUC2CF  B1GO.SPG         .1584   B1RD....           .12
    P1CUC2CF  B1RD.SUL          .252   B1RD.SPG         .1176
    P1CUC2CF  K1CU               .25   B1CF.PC2           -1.
    P2CUC2CF  B2CF....           -1.   B2NL....           .09
    P2CUC2CF  B2NL.RON          6.84   B2LHS...           .05
    P2CUC2CF  B2LHSPAR          3.25   B2LHSARO            .3
    P2CUC2CF  B2LHSRON           3.5   B2LHSSUL         .0015
    P2CUC2CF  B2LHSSPG          .035   B2NH....           .23
    P2CUC2CF  B2NH.PAR          13.8   B2NH.ARO           2.3
    P2CUC2CF  B2NH.SUL         .0069   B2NH.SPG         .1725
    P2CUC2CF  B2NDS...           .05   B2NDSPAR          2.75
    P2CUC2CF  B2NDSARO            .7   B2NDSSUL          .004
    P2CUC2CF  B2NDSSPG          .039   B2DS....           .27
    P2CUC2CF  B2DS.SUL         .0432   B2DS.SPG         .2214
    P2CUC2CF  B2GO....           .18   B2GO.SUL          .198
    P2CUC2CF  B2GO.SPG         .1584   B2RD....           .12
    P2CUC2CF  B2RD.SUL          .252   B2RD.SPG         .1176
    P2CUC2CF  K2CU                .1   B2CF.PC2           -1.
    P3CUC2CF  B3CF....           -1.   B3CF.PC2           -1.
    P3CUC2CF  B3NL....           .09   B3NL.RON          6.84
    P3CUC2CF  B3LHS...           .05   B3LHSPAR          3.25
    P3CUC2CF  B3LHSARO            .3   B3LHSRON           3.5
    P3CUC2CF  B3LHSSUL         .0015   B3LHSSPG          .035
    P3CUC2CF  B3NH....           .23   B3NH.PAR          13.8
    P3CUC2CF  B3NH.ARO           2.3   B3NH.SUL         .0069
    P3CUC2CF  B3NH.SPG         .1725   B3NDS...           .05
    P3CUC2CF  B3NDSPAR          2.75   B3NDSARO            .7
    P3CUC2CF  B3NDSSUL          .004   B3NDSSPG          .039
    P3CUC2CF  B3DS....           .27   B3DS.SUL         .0432
    P3CUC2CF  B3DS.SPG         .2214   B3GO....           .18
    P3CUC2CF  B3GO.SUL          .198   B3GO.SPG         .1584
    P3CUC2CF  B3RD....           .12   B3RD.SUL          .252
    P3CUC2CF  B3RD.SPG         .1176   K3CU             .0625
    P1CUC3CF  B1CF....           -1.   B1NL....           .02
    P1CUC3CF  B1NL.RON          1.54   B1LHS...           .05
    P1CUC3CF  B1LHSPAR           3.1   B1LHSARO            .4
    P1CUC3CF  B1LHSRON          3.55   B1LHSSUL     .00199999
    P1CUC3CF  B1LHSSPG          .036   B1NH....           .29
    P1CUC3CF  B1NH.PAR      16.81999   B1NH.ARO          3.48
    P1CUC3CF  B1NH.SUL         .0087   B1NH.SPG         .2233
    P1CUC3CF  B1NDS...           .07   B1NDSPAR          3.71
    P1CUC3CF  B1NDSARO           .98   B1NDSSUL         .0063
    P1CUC3CF  B1NDSSPG          .056   B1DS....           .31
    P1CUC3CF  B1DS.SUL         .0527   B1DS.SPG         .2604
    P1CUC3CF  B1GO....           .19   B1GO.SUL          .285
    P1CUC3CF  B1GO.SPG          .171   B1RD....           .06
    P1CUC3CF  B1RD.SUL          .156   B1RD.SPG     .06239999
    P1CUC3CF  K1CU               .25   B1CF.PC3           -1.
    P2CUC3CF  B2CF....           -1.   B2NL....           .02
    P2CUC3CF  B2NL.RON          1.54   B2LHS...           .05
    P2CUC3CF  B2LHSPAR           3.1   B2LHSARO            .4
    P2CUC3CF  B2LHSRON          3.55   B2LHSSUL     .00199999
    P2CUC3CF  B2LHSSPG          .036   B2NH....           .29
    P2CUC3CF  B2NH.PAR      16.81999   B2NH.ARO          3.48
    P2CUC3CF  B2NH.SUL         .0087   B2NH.SPG         .2233
    P2CUC3CF  B2NDS...           .07   B2NDSPAR          3.71
    P2CUC3CF  B2NDSARO           .98   B2NDSSUL         .0063
    P2CUC3CF  B2NDSSPG          .056   B2DS....           .31
    P2CUC3CF  B2DS.SUL         .0527   B2DS.SPG         .2604
    P2CUC3CF  B2GO....           .19   B2GO.SUL          .285
    P2CUC3CF  B2GO.SPG          .171   B2RD....           .06
    P2CUC3CF  B2RD.SUL          .156   B2RD.SPG     .06239999
    P2CUC3CF  K2CU                .1   B2CF.PC3           -1.
    P3CUC3CF  B3CF....           -1.   B3CF.PC2        -.0001
    P3CUC3CF  B3NL....           .02   B3NL.RON          1.54
    P3CUC3CF  B3LHS...           .05   B3LHSPAR           3.1
    P3CUC3CF  B3LHSARO            .4   B3LHSRON          3.55
    P3CUC3CF  B3LHSSUL     .00199999   B3LHSSPG          .036
    P3CUC3CF  B3NH....           .29   B3NH.PAR      16.81999
    P3CUC3CF  B3NH.ARO          3.48   B3NH.SUL         .0087
    P3CUC3CF  B3NH.SPG         .2233   B3NDS...           .07
    P3CUC3CF  B3NDSPAR          3.71   B3NDSARO           .98
    P3CUC3CF  B3NDSSUL         .0063   B3NDSSPG          .056
    P3CUC3CF  B3DS....           .31   B3DS.SUL         .0527
    P3CUC3CF  B3DS.SPG         .2604   B3GO....           .19
    P3CUC3CF  B3GO.SUL          .285   B3GO.SPG          .171
    P3CUC3CF  B3RD....           .06   B3RD.SUL          .156
    P3CUC3CF  B3RD.SPG     .06239999   K3CU             .0625
    P3CUC3CF  B3CF.PC3           -1.
    P1RFRFNH  B1NH....           -1.   B1NH.PAR        -62.36
    P1RFRFNH  B1NH.ARO       -10.819   B1NH.SUL        -.0352
    P1RFRFNH  B1NH.SPG        -.7455   B1RF....          .725
    P1RFRFNH  B1RF.RON         73.39   K1RF               .25
    P2RFRFNH  B2NH....           -1.   B2NH.PAR        -60.87
    P2RFRFNH  B2NH.ARO        -11.47   B2NH.SUL        -.0285
    P2RFRFNH  B2NH.SPG        -.7552   B2RF....          .734
    P2RFRFNH  B2RF.RON         73.38   K2RF                .1
    P3RFRFNH  B3NH....           -1.   B3NH.PAR       -58.926
    P3RFRFNH  B3NH.ARO        -12.11   B3NH.SUL        -.0397
    P3RFRFNH  B3NH.SPG        -.7662   B3RF....          .734
    P3RFRFNH  B3RF.RON         73.38   K3RF             .0625
    P1CCCDDS  B1DS....           -1.   B1DS.SUL        -.1552
    P1CCCDDS  B1DS.SPG        -.8105   B1CN1...           .59
    P1CCCDDS  B1CL....           .46   B1CH....           .12
    P1CCCDDS  K1CC               .25
    P2CCCDDS  B2DS....           -1.   B2DS.SUL        -.1463
    P2CCCDDS  B2DS.SPG        -.8175   B2CN1...           .59
    P2CCCDDS  B2CL....           .46   B2CH....           .12
    P2CCCDDS  K2CC                .1
    P3CCCDDS  B3DS....           -1.   B3DS.SUL        -.1631
    P3CCCDDS  B3DS.SPG        -.8263   B3CN1...           .59
    P3CCCDDS  B3CL....           .46   B3CH....           .12
    P3CCCDDS  K3CC             .0625
    P1CCCGGO  B1GO....           -1.   B1GO.SUL        -.9199
    P1CCCGGO  B1GO.SPG        -.8679   B1CN1...           .55
    P1CCCGGO  B1CL....           .45   B1CH....           .15
    P1CCCGGO  K1CC               .25
    P2CCCGGO  B2GO....           -1.   B2GO.SUL       -1.0897
    P2CCCGGO  B2GO.SPG        -.8768   B2CN1...           .55
    P2CCCGGO  B2CL....           .45   B2CH....           .15
    P2CCCGGO  K2CC                .1
    P3CCCGGO  B3GO....           -1.   B3GO.SUL        -1.157
    P3CCCGGO  B3GO.SPG        -.8808   B3CN1...           .55
    P3CCCGGO  B3CL....           .45   B3CH....           .15
    P3CCCGGO  K3CC             .0625
    P1CCCLCL  B1CL....           -.5   B1CH....           .05
    P1CCCLCL  K1CC               .25   B1CN2...           .62
    P2CCCLCL  B2CL....           -.5   B2CH....           .05
    P2CCCLCL  K2CC                .1   B2CN2...           .62
    P3CCCLCL  B3CL....           -.5   B3CH....           .05
    P3CCCLCL  K3CC             .0625   B3CN2...           .62
    P1CCCHCH  B1CL....            .4   B1CH....          -.85
    P1CCCHCH  K1CC               .25   B1CN2...           .62
    P2CCCHCH  B2CL....            .4   B2CH....          -.85
    P2CCCHCH  K2CC                .1   B2CN2...           .62
    P3CCCHCH  B3CL....            .4   B3CH....          -.85
    P3CCCHCH  K3CC             .0625   B3CN2...           .62
    F2C1.T1.  B2C1....           -1.   B2T1....            1.
    F2C1.T1.  B2T1.PC1            1.
    F3C1.T1.  B3C1....           -1.   B3T1....            1.
    F3C1.T1.  B3T1.PC1            1.
    F1C1.T2.  B1C1....           -1.   B1T2....            1.
    F1C1.T2.  B1T2.PC1            1.
    F2C1.T2.  B2C1....           -1.   B2T2....            1.
    F2C1.T2.  B2T2.PC1            1.
    F3C1.T2.  B3C1....           -1.   B3T2....            1.
    F3C1.T2.  B3T2.PC1            1.
    F2C2.T1.  B2C2....           -1.   B2T1....            1.
    F2C2.T1.  B2T1.PC2            1.
    F3C2.T1.  B3C2....           -1.   B3T1....            1.
    F3C2.T1.  B3T1.PC2            1.
    F1C2.T2.  B1C2....           -1.   B1T2....            1.
    F1C2.T2.  B1T2.PC2            1.
    F2C2.T2.  B2C2....           -1.   B2T2....            1.
    F2C2.T2.  B2T2.PC2            1.
    F3C2.T2.  B3C2....           -1.   B3T2....            1.
    F3C2.T2.  B3T2.PC2            1.
    F1C2.T3.  B1C2....           -1.   B1T3....            1.
    F1C2.T3.  B1T3.PC2            1.
    F2C2.T3.  B2C2....           -1.   B2T3....            1.
    F2C2.T3.  B2T3.PC2            1.
    F3C2.T3.  B3C2....           -1.   B3T3....            1.
    F3C2.T3.  B3T3.PC2            1.
    F2C3.T2.  B2C3....           -1.   B2T2....            1.
    F2C3.T2.  B2T2.PC3            1.
    F3C3.T2.  B3C3....           -1.   B3T2....            1.
    F3C3.T2.  B3T2.PC3            1.
    F2C3.T3.  B2C3....           -1.   B2T3....            1.
    F2C3.T3.  B2T3.PC3            1.
    F3C3.T3.  B3C3....           -1.   B3T3....            1.
    F3C3.T3.  B3T3.PC3            1.
    F1T1.CF.  B1CF....            1.   B1CF.PC1            .5
    F1T1.CF.  B1CF.PC2            .5   B1T1....           -1.
    F1T1.CF.  B1T1.PC1           -.5   B1T1.PC2           -.5
    F3T1.CF.  B3CF....            1.   B3CF.PC2         .5019
    F3T1.CF.  B3CF.PC1         .4987   B3T1....           -1.
    F3T1.CF.  B3T1.PC1        -.4987   B3T1.PC2        -.5019
    F2T2.CF.  B2CF....            1.   B2CF.PC1         .4306
    F2T2.CF.  B2CF.PC2         .0025   B2CF.PC3         .5668
    F2T2.CF.  B2T2....           -1.   B2T2.PC1        -.4306
    F2T2.CF.  B2T2.PC2        -.0025   B2T2.PC3        -.5668
    F3T2.CF.  B3CF....            1.   B3CF.PC2         .7105
    F3T2.CF.  B3CF.PC1         .0245   B3CF.PC3         .2637
    F3T2.CF.  B3T2....           -1.   B3T2.PC1        -.0245
    F3T2.CF.  B3T2.PC2        -.7105   B3T2.PC3        -.2637
    F3T3.CF.  B3CF....            1.   B3CF.PC3            1.
    F3T3.CF.  B3T3....           -1.   B3T3.PC3           -1.
    F1NL.PG.  B1NL....           -1.   B1NL.RON       -76.727
    F1NL.PG.  B1PG....            1.   B1PG.RON        76.727
    F2NL.PG.  B2NL....           -1.   B2NL.RON       -74.195
    F2NL.PG.  B2PG....            1.   B2PG.RON        74.195
    F3NL.PG.  B3NL....           -1.   B3NL.RON       -72.981
    F3NL.PG.  B3PG....            1.   B3PG.RON        72.981
    F1NL.RG.  B1NL....           -1.   B1NL.RON       -76.727
    F1NL.RG.  B1RG....            1.   B1RG.RON        76.727
    F2NL.RG.  B2NL....           -1.   B2NL.RON       -74.195
    F2NL.RG.  B2RG....            1.   B2RG.RON        74.195
    F3NL.RG.  B3NL....           -1.   B3NL.RON       -72.981
    F3NL.RG.  B3RG....            1.   B3RG.RON        72.981
    F1LHSNL.  B1NL....            1.   B1NL.RON          69.5
    F1LHSNL.  B1LHS...           -1.   B1LHSPAR         -67.5
    F1LHSNL.  B1LHSARO           -7.   B1LHSRON         -69.5
    F1LHSNL.  B1LHSSUL        -.0249   B1LHSSPG        -.7099
    F2LHSNL.  B2NL....            1.   B2NL.RON        70.136
    F2LHSNL.  B2LHS...           -1.   B2LHSPAR       -65.452
    F2LHSNL.  B2LHSARO       -7.9949   B2LHSRON       -70.136
    F2LHSNL.  B2LHSSUL        -.0313   B2LHSSPG        -.7199
    F3LHSNL.  B3NL....            1.   B3NL.RON        70.223
    F3LHSNL.  B3LHS...           -1.   B3LHSPAR       -64.893
    F3LHSNL.  B3LHSARO       -7.5756   B3LHSRON       -70.223
    F3LHSNL.  B3LHSSUL        -.0322   B3LHSSPG        -.7157
    F1LHSNH.  B1LHS...           -1.   B1LHSPAR         -67.5
    F1LHSNH.  B1LHSARO           -7.   B1LHSRON         -69.5
    F1LHSNH.  B1LHSSUL        -.0249   B1LHSSPG        -.7099
    F1LHSNH.  B1NH....            1.   B1NH.PAR          67.5
    F1LHSNH.  B1NH.ARO            7.   B1NH.SUL         .0249
    F1LHSNH.  B1NH.SPG         .7099
    F2LHSNH.  B2LHS...           -1.   B2LHSPAR       -65.452
    F2LHSNH.  B2LHSARO       -7.9949   B2LHSRON       -70.136
    F2LHSNH.  B2LHSSUL        -.0313   B2LHSSPG        -.7199
    F2LHSNH.  B2NH....            1.   B2NH.PAR        65.452
    F2LHSNH.  B2NH.ARO        7.9949   B2NH.SUL         .0313
    F2LHSNH.  B2NH.SPG         .7199
    F3LHSNH.  B3LHS...           -1.   B3LHSPAR       -64.893
    F3LHSNH.  B3LHSARO       -7.5756   B3LHSRON       -70.223
    F3LHSNH.  B3LHSSUL        -.0322   B3LHSSPG        -.7157
    F3LHSNH.  B3NH....            1.   B3NH.PAR        64.893
    F3LHSNH.  B3NH.ARO        7.5756   B3NH.SUL         .0322
    F3LHSNH.  B3NH.SPG         .7157
    F1NH.HO.  B1NH....           -1.   B1NH.PAR        -62.36
    F1NH.HO.  B1NH.ARO       -10.819   B1NH.SUL        -.0352
    F1NH.HO.  B1NH.SPG        -.7455   B1HO....            1.
    F1NH.HO.  B1HO.SUL         .0352   B1HO.SPG         .7455
    F2NH.HO.  B2NH....           -1.   B2NH.PAR        -60.87
    F2NH.HO.  B2NH.ARO        -11.47   B2NH.SUL        -.0285
    F2NH.HO.  B2NH.SPG        -.7552   B2HO....            1.
    F2NH.HO.  B2HO.SUL         .0285   B2HO.SPG         .7552
    F3NH.HO.  B3NH....           -1.   B3NH.PAR       -58.926
    F3NH.HO.  B3NH.ARO        -12.11   B3NH.SUL        -.0397
    F3NH.HO.  B3NH.SPG        -.7662   B3HO....            1.
    F3NH.HO.  B3HO.SUL         .0397   B3HO.SPG         .7662
    F1NDSNH.  B1NH....            1.   B1NH.PAR        59.083
    F1NDSNH.  B1NH.ARO           14.   B1NH.SUL         .0741
    F1NDSNH.  B1NH.SPG         .7741   B1NDS...           -1.
    F1NDSNH.  B1NDSPAR       -59.083   B1NDSARO          -14.
    F1NDSNH.  B1NDSSUL        -.0741   B1NDSSPG        -.7741
    F2NDSNH.  B2NH....            1.   B2NH.PAR        56.881
    F2NDSNH.  B2NH.ARO           14.   B2NH.SUL         .0813
    F2NDSNH.  B2NH.SPG          .787   B2NDS...           -1.
    F2NDSNH.  B2NDSPAR       -56.881   B2NDSARO          -14.
    F2NDSNH.  B2NDSSUL        -.0813   B2NDSSPG         -.787
    F3NDSNH.  B3NH....            1.   B3NH.PAR        56.025
    F3NDSNH.  B3NH.ARO           14.   B3NH.SUL         .0823
    F3NDSNH.  B3NH.SPG         .7877   B3NDS...           -1.
    F3NDSNH.  B3NDSPAR       -56.025   B3NDSARO          -14.
    F3NDSNH.  B3NDSSUL        -.0823   B3NDSSPG        -.7877
    F1NDSDS.  B1NDS...           -1.   B1NDSPAR       -59.083
    F1NDSDS.  B1NDSARO          -14.   B1NDSSUL        -.0741
    F1NDSDS.  B1NDSSPG        -.7741   B1DS....            1.
    F1NDSDS.  B1DS.SUL         .0741   B1DS.SPG         .7741
    F2NDSDS.  B2NDS...           -1.   B2NDSPAR       -56.881
    F2NDSDS.  B2NDSARO          -14.   B2NDSSUL        -.0813
    F2NDSDS.  B2NDSSPG         -.787   B2DS....            1.
    F2NDSDS.  B2DS.SUL         .0813   B2DS.SPG          .787
    F3NDSDS.  B3NDS...           -1.   B3NDSPAR       -56.025
    F3NDSDS.  B3NDSARO          -14.   B3NDSSUL        -.0823
    F3NDSDS.  B3NDSSPG        -.7877   B3DS....            1.
    F3NDSDS.  B3DS.SUL         .0823   B3DS.SPG         .7877
    F1DS.HO.  B1DS....           -1.   B1DS.SUL        -.1552
    F1DS.HO.  B1DS.SPG        -.8105   B1HO....            1.
    F1DS.HO.  B1HO.SUL         .1552   B1HO.SPG         .8105
    F2DS.HO.  B2DS....           -1.   B2DS.SUL        -.1463
    F2DS.HO.  B2DS.SPG        -.8175   B2HO....            1.
    F2DS.HO.  B2HO.SUL         .1463   B2HO.SPG         .8175
    F3DS.HO.  B3DS....           -1.   B3DS.SUL        -.1631
    F3DS.HO.  B3DS.SPG        -.8263   B3HO....            1.
    F3DS.HO.  B3HO.SUL         .1631   B3HO.SPG         .8263
    F1GO.HO.  B1GO....           -1.   B1GO.SUL        -.9199
    F1GO.HO.  B1GO.SPG        -.8679   B1HO....            1.
    F1GO.HO.  B1HO.SUL         .9199   B1HO.SPG         .8679
    F2GO.HO.  B2GO....           -1.   B2GO.SUL       -1.0897
    F2GO.HO.  B2GO.SPG        -.8768   B2HO....            1.
    F2GO.HO.  B2HO.SUL        1.0897   B2HO.SPG         .8768
    F3GO.HO.  B3GO....           -1.   B3GO.SUL        -1.157
    F3GO.HO.  B3GO.SPG        -.8808   B3HO....            1.
    F3GO.HO.  B3HO.SUL         1.157   B3HO.SPG         .8808
    F1GO.FO.  B1GO....           -1.   B1GO.SUL        -.9199
    F1GO.FO.  B1GO.SPG        -.8679   B1FO....            1.
    F1GO.FO.  B1FO.SUL         .9199   B1FO.SPG         .8679
    F2GO.FO.  B2GO....           -1.   B2GO.SUL       -1.0897
    F2GO.FO.  B2GO.SPG        -.8768   B2FO....            1.
    F2GO.FO.  B2FO.SUL        1.0897   B2FO.SPG         .8768
    F3GO.FO.  B3GO....           -1.   B3GO.SUL        -1.157
    F3GO.FO.  B3GO.SPG        -.8808   B3FO....            1.
    F3GO.FO.  B3FO.SUL         1.157   B3FO.SPG         .8808
    F1RD.FO.  B1RD....           -1.   B1RD.SUL       -1.7999
    F1RD.FO.  B1RD.SPG         -.944   B1FO....            1.
    F1RD.FO.  B1FO.SUL        1.7999   B1FO.SPG          .944
    F2RD.FO.  B2RD....           -1.   B2RD.SUL       -1.9054
    F2RD.FO.  B2RD.SPG        -.9566   B2FO....            1.
    F2RD.FO.  B2FO.SUL        1.9054   B2FO.SPG         .9566
    F3RD.FO.  B3RD....           -1.   B3RD.SUL       -2.0041
    F3RD.FO.  B3RD.SPG        -.9684   B3FO....            1.
    F3RD.FO.  B3FO.SUL        2.0041   B3FO.SPG         .9684
    F1RF.PG.  B1RF....           -1.   B1RF.RON       -101.22
    F1RF.PG.  B1PG....            1.   B1PG.RON        101.22
    F2RF.PG.  B2RF....           -1.   B2RF.RON       -99.974
    F2RF.PG.  B2PG....            1.   B2PG.RON        99.974
    F3RF.PG.  B3RF....           -1.   B3RF.RON       -99.975
    F3RF.PG.  B3PG....            1.   B3PG.RON        99.975
    F1RF.RG.  B1RF....           -1.   B1RF.RON       -101.22
    F1RF.RG.  B1RG....            1.   B1RG.RON        101.22
    F2RF.RG.  B2RF....           -1.   B2RF.RON       -99.974
    F2RF.RG.  B2RG....            1.   B2RG.RON        99.974
    F3RF.RG.  B3RF....           -1.   B3RF.RON       -99.975
    F3RF.RG.  B3RG....            1.   B3RG.RON        99.975
    F1CN1CN.  B1CN1...           -1.   B1CN....            1.
    F1CN1CN.  B1CN.RON           88.
    F2CN1CN.  B2CN1...           -1.   B2CN....            1.
    F2CN1CN.  B2CN.RON           88.
    F3CN1CN.  B3CN1...           -1.   B3CN....            1.
    F3CN1CN.  B3CN.RON           88.
    F1CN2CN.  B1CN2...           -1.   B1CN....            1.
    F1CN2CN.  B1CN.RON           92.
    F2CN2CN.  B2CN2...           -1.   B2CN....            1.
    F2CN2CN.  B2CN.RON           92.
    F3CN2CN.  B3CN2...           -1.   B3CN....            1.
    F3CN2CN.  B3CN.RON           92.
    F1CL.HO.  B1CL....           -1.   B1HO....            1.
    F1CL.HO.  B1HO.SUL          .455   B1HO.SPG           .91
    F2CL.HO.  B2CL....           -1.   B2HO....            1.
    F2CL.HO.  B2HO.SUL          .455   B2HO.SPG           .91
    F3CL.HO.  B3CL....           -1.   B3HO....            1.
    F3CL.HO.  B3HO.SUL          .455   B3HO.SPG           .91
    F1CH.HO.  B1CH....           -1.   B1HO....            1.
    F1CH.HO.  B1HO.SUL         1.056   B1HO.SPG           .96
    F2CH.HO.  B2CH....           -1.   B2HO....            1.
    F2CH.HO.  B2HO.SUL         1.056   B2HO.SPG           .96
    F3CH.HO.  B3CH....           -1.   B3HO....            1.
    F3CH.HO.  B3HO.SUL         1.056   B3HO.SPG           .96
    F1CH.FO.  B1CH....           -1.   B1FO....            1.
    F1CH.FO.  B1FO.SUL         1.056   B1FO.SPG           .96
    F2CH.FO.  B2CH....           -1.   B2FO....            1.
    F2CH.FO.  B2FO.SUL         1.056   B2FO.SPG           .96
    F3CH.FO.  B3CH....           -1.   B3FO....            1.
    F3CH.FO.  B3FO.SUL         1.056   B3FO.SPG           .96
    F1CN.PG.  B1PG....            1.   B1PG.RON        90.066
    F1CN.PG.  B1CN....           -1.   B1CN.RON       -90.066
    F2CN.PG.  B2PG....            1.   B2PG.RON        89.365
    F2CN.PG.  B2CN....           -1.   B2CN.RON       -89.365
    F3CN.PG.  B3PG....            1.   B3PG.RON        90.932
    F3CN.PG.  B3CN....           -1.   B3CN.RON       -90.932
    F1CN.RG.  B1RG....            1.   B1RG.RON        90.066
    F1CN.RG.  B1CN....           -1.   B1CN.RON       -90.066
    F2CN.RG.  B2RG....            1.   B2RG.RON        89.365
    F2CN.RG.  B2CN....           -1.   B2CN.RON       -89.365
    F3CN.RG.  B3RG....            1.   B3RG.RON        90.932
    F3CN.RG.  B3CN....           -1.   B3CN.RON       -90.932
    D1T1.PC1  B1CF.PC1          595.   B2T1.PC1            5.
    D1T1.PC1  B1T1.PC1         -600.   Q1T1.PC1           -1.
    D1T1.PC2  B1CF.PC2          595.   B2T1.PC2            5.
    D1T1.PC2  B1T1.PC2         -600.   Q1T1.PC2           -1.
    D1T1.PC3  B1CF.PC3          595.   B1T1.PC3         -600.
    D1T1.PC3  B2T1.PC3            5.   Q1T1.PC3           -1.
    D1T2.PC1  B1T2.PC1         -100.   B2T2.PC1          100.
    D1T2.PC1  Q1T2.PC1           -1.
    D1T2.PC2  B1T2.PC2         -100.   B2T2.PC2          100.
    D1T2.PC2  Q1T2.PC2           -1.
    D1T2.PC3  B2T2.PC3          100.   B1T2.PC3         -100.
    D1T2.PC3  Q1T2.PC3           -1.
    D1T3.PC1  B1T3.PC1           -1.   B2T3.PC1            1.
    D1T3.PC1  Q1T3.PC1           -1.
    D1T3.PC2  B1T3.PC2           -1.   B2T3.PC2            1.
    D1T3.PC2  Q1T3.PC2           -1.
    D1T3.PC3  B2T3.PC3            1.   B1T3.PC3           -1.
    D1T3.PC3  Q1T3.PC3           -1.
    D1CF.PC1  B1CF.PC1         -595.   Q1CF.PC1           -1.
    D1CF.PC2  B1CF.PC2         -595.   Q1CF.PC2           -1.
    D1CF.PC3  B1CF.PC3         -595.   Q1CF.PC3           -1.
    D1NL.RON  B1NL.RON       -32.725   B2NL.RON       5.03858
    D1NL.RON  B1PG.RON        4.6979   B1RG.RON      22.98852
    D1NL.RON  Q1NL.RON           -1.
    D1LHSPAR  B1LHSPAR        -29.75   B1NH.PAR         29.75
    D1LHSPAR  Q1LHSPAR           -1.
    D1LHSARO  B1LHSARO        -29.75   B1NH.ARO         29.75
    D1LHSARO  Q1LHSARO           -1.
    D1LHSRON  B1LHSRON        -29.75   Q1LHSRON           -1.
    D1LHSSUL  B1LHSSUL        -29.75   B1NH.SUL         29.75
    D1LHSSUL  Q1LHSSUL           -1.
    D1LHSSPG  B1LHSSPG        -29.75   B1NH.SPG         29.75
    D1LHSSPG  Q1LHSSPG           -1.
    D1NH.PAR  B1NH.PAR    -183.36395   B2NH.PAR        61.475
    D1NH.PAR  B1RF....       -1.1892   B1RF.RON      13.19999
    D1NH.PAR  Q1NH.PAR           -1.
    D1NH.ARO  B1NH.ARO    -183.36395   B2NH.ARO        61.475
    D1NH.ARO  B1RF....           1.2   B1RF.RON      19.19999
    D1NH.ARO  Q1NH.ARO           -1.
    D1NH.SUL  B1NH.SUL    -183.36395   B2NH.SUL        61.475
    D1NH.SUL  Q1NH.SUL           -1.
    D1NH.SPG  B1NH.SPG    -183.36395   B2NH.SPG        61.475
    D1NH.SPG  Q1NH.SPG           -1.
    D1NDSPAR  B1NH.PAR          35.7   B1NDSPAR         -35.7
    D1NDSPAR  Q1NDSPAR           -1.
    D1NDSARO  B1NH.ARO          35.7   B1NDSARO         -35.7
    D1NDSARO  Q1NDSARO           -1.
    D1NDSSUL  B1NH.SUL          35.7   B1NDSSUL         -35.7
    D1NDSSUL  Q1NDSSUL           -1.
    D1NDSSPG  B1NH.SPG          35.7   B1NDSSPG         -35.7
    D1NDSSPG  Q1NDSSPG           -1.
    D1DS.SUL  B1DS.SUL    -153.61395   B1HO.SUL      12.90915
    D1DS.SUL  Q1DS.SUL           -1.
    D1DS.SPG  B1DS.SPG    -153.61395   B1HO.SPG      12.90915
    D1DS.SPG  Q1DS.SPG           -1.
    D1GO.SUL  B1GO.SUL    -148.98654   B2GO.SUL      92.75748
    D1GO.SUL  B1HO.SUL      27.09084   B1FO.SUL      14.02668
    D1GO.SUL  Q1GO.SUL           -1.
    D1GO.SPG  B1GO.SPG    -148.98654   B2GO.SPG      92.75748
    D1GO.SPG  B1HO.SPG      27.09084   B1FO.SPG      14.02668
    D1GO.SPG  Q1GO.SPG           -1.
    D1RD.SUL  B1RD.SUL        -89.25   B1FO.SUL         89.25
    D1RD.SUL  Q1RD.SUL           -1.
    D1RD.SPG  B1RD.SPG        -89.25   B1FO.SPG         89.25
    D1RD.SPG  Q1RD.SPG           -1.
    D1RF.RON  B1RF.RON     -87.00003   B1PG.RON      87.00003
    D1RF.RON  Q1RF.RON           -1.
    D1CN.RON  B1PG.RON      92.42404   B1RG.RON      77.01147
    D1CN.RON  B1CN.RON    -169.43552   Q1CN.RON           -1.
    D1PG.RON  B1PG.RON    -184.12198   Q1PG.RON           -1.
    D1RG.RON  B1RG.RON         -100.   Q1RG.RON           -1.
    D1HO.SUL  B1HO.SUL     -21.11057   Q1HO.SUL           -1.
    D1HO.SPG  B1HO.SPG     -21.11057   Q1HO.SPG           -1.
    D1FO.SUL  B1FO.SUL    -103.27669   Q1FO.SUL           -1.
    D1FO.SPG  B1FO.SPG    -103.27669   Q1FO.SPG           -1.
    D2T1.PC1  B2T1.PC1      -6.00002   B3T1.PC1       6.00002
    D2T1.PC1  Q2T1.PC1           -1.
    D2T1.PC2  B2T1.PC2      -6.00002   B3T1.PC2       6.00002
    D2T1.PC2  Q2T1.PC2           -1.
    D2T1.PC3  B2T1.PC3      -6.00002   B3T1.PC3       6.00002
    D2T1.PC3  Q2T1.PC3           -1.
    D2T2.PC1  B2CF.PC1         1500.   B2T2.PC1        -1600.
    D2T2.PC1  B3T2.PC1          100.   Q2T2.PC1           -1.
    D2T2.PC2  B2CF.PC2         1500.   B2T2.PC2        -1600.
    D2T2.PC2  B3T2.PC2          100.   Q2T2.PC2           -1.
    D2T2.PC3  B2CF.PC3         1500.   B2T2.PC3        -1600.
    D2T2.PC3  B3T2.PC3          100.   Q2T2.PC3           -1.
    D2T3.PC1  B2T3.PC1         -100.   B3T3.PC1          100.
    D2T3.PC1  Q2T3.PC1           -1.
    D2T3.PC2  B2T3.PC2         -100.   B3T3.PC2          100.
    D2T3.PC2  Q2T3.PC2           -1.
    D2T3.PC3  B2T3.PC3         -100.   B3T3.PC3          100.
    D2T3.PC3  Q2T3.PC3           -1.
    D2CF.PC1  B2CF.PC1        -1500.   Q2CF.PC1           -1.
    D2CF.PC2  B2CF.PC2        -1500.   Q2CF.PC2           -1.
    D2CF.PC3  B2CF.PC3        -1500.   Q2CF.PC3           -1.
    D2NL.RON  B2NL.RON     -68.82119   B2PG.RON       6.44529
    D2NL.RON  B2RG.RON      62.37589   Q2NL.RON           -1.
    D2LHSPAR  B2LHSPAR          -75.   B2NH.PAR      41.47988
    D2LHSPAR  Q2LHSPAR           -1.
    D2LHSARO  B2LHSARO          -75.   B2NH.ARO      41.47988
    D2LHSARO  Q2LHSARO           -1.
    D2LHSRON  B2NL.RON      33.52011   B2LHSRON          -75.
    D2LHSRON  Q2LHSRON           -1.
    D2LHSSUL  B2LHSSUL          -75.   B2NH.SUL      41.47988
    D2LHSSUL  Q2LHSSUL           -1.
    D2LHSSPG  B2LHSSPG          -75.   B2NH.SPG      41.47988
    D2LHSSPG  Q2LHSSPG           -1.
    D2NH.PAR  B2NH.PAR    -453.75793   B2RF....       -5.6997
    D2NH.PAR  B2RF.RON     416.70001   Q2NH.PAR           -1.
    D2NH.ARO  B2NH.ARO    -453.75793   B2RF....          -1.5
    D2NH.ARO  B2RF.RON     333.29968   Q2NH.ARO           -1.
    D2NH.SUL  B2NH.SUL    -453.75793   B2HO.SUL      153.7579
    D2NH.SUL  Q2NH.SUL           -1.
    D2NH.SPG  B2NH.SPG    -453.75793   B2HO.SPG      153.7579
    D2NH.SPG  Q2NH.SPG           -1.
    D2NDSPAR  B2NDSPAR      -104.925   Q2NDSPAR           -1.
    D2NDSARO  B2NDSARO      -104.925   Q2NDSARO           -1.
    D2NDSSUL  B2NDSSUL      -104.925   B2DS.SUL      104.9249
    D2NDSSUL  Q2NDSSUL           -1.
    D2NDSSPG  B2NDSSPG      -104.925   B2DS.SPG      104.9249
    D2NDSSPG  Q2NDSSPG           -1.
    D2DS.SUL  B2DS.SUL    -524.55939   B2HO.SUL      55.80937
    D2DS.SUL  Q2DS.SUL           -1.
    D2DS.SPG  B2DS.SPG    -524.55939   B2HO.SPG      55.80937
    D2DS.SPG  Q2DS.SPG           -1.
    D2GO.SUL  B2GO.SUL    -429.39499   B3GO.SUL          100.
    D2GO.SUL  B2HO.SUL     266.34079   B2FO.SUL       63.0541
    D2GO.SUL  Q2GO.SUL           -1.
    D2GO.SPG  B2GO.SPG    -429.39499   B3GO.SPG          100.
    D2GO.SPG  B2HO.SPG     266.34079   B2FO.SPG       63.0541
    D2GO.SPG  Q2GO.SPG           -1.
    D2RD.SUL  B2RD.SUL     -167.7375   B2FO.SUL      167.7375
    D2RD.SUL  Q2RD.SUL           -1.
    D2RD.SPG  B2RD.SPG     -167.7375   B2FO.SPG      167.7375
    D2RD.SPG  Q2RD.SPG           -1.
    D2RF.RON  B2RF.RON    -220.19858   B3RF.RON          100.
    D2RF.RON  B2PG.RON      120.1985   Q2RF.RON           -1.
    D2CN.RON  B2PG.RON      82.31337   B2RG.RON     337.62411
    D2CN.RON  B2CN.RON     -419.9375   Q2CN.RON           -1.
    D2PG.RON  B2PG.RON    -208.95726   Q2PG.RON           -1.
    D2RG.RON  B2RG.RON         -400.   Q2RG.RON           -1.
    D2HO.SUL  B2HO.SUL    -475.90817   Q2HO.SUL           -1.
    D2HO.SPG  B2HO.SPG    -475.90817   Q2HO.SPG           -1.
    D2FO.SUL  B2FO.SUL    -230.79161   Q2FO.SUL           -1.
    D2FO.SPG  B2FO.SPG    -230.79161   Q2FO.SPG           -1.
    D3T1.PC1  B3CF.PC1     988.25067   B3T1.PC1    -993.25079
    D3T1.PC1  Q3T1.PC1           -1.
    D3T1.PC2  B3CF.PC2     988.25067   B3T1.PC2    -993.25079
    D3T1.PC2  Q3T1.PC2           -1.
    D3T1.PC3  B3CF.PC3     988.25067   B3T1.PC3    -993.25079
    D3T1.PC3  Q3T1.PC3           -1.
    D3T2.PC1  B3CF.PC1      193.8589   B3T2.PC1     -203.8589
    D3T2.PC1  Q3T2.PC1           -1.
    D3T2.PC2  B3CF.PC2      193.8589   B3T2.PC2     -203.8589
    D3T2.PC2  Q3T2.PC2           -1.
    D3T2.PC3  B3CF.PC3      193.8589   B3T2.PC3     -203.8589
    D3T2.PC3  Q3T2.PC3           -1.
    D3T3.PC1  B3CF.PC1         1100.   B3T3.PC1        -1100.
    D3T3.PC1  Q3T3.PC1           -1.
    D3T3.PC2  B3CF.PC2         1100.   B3T3.PC2        -1100.
    D3T3.PC2  Q3T3.PC2           -1.
    D3T3.PC3  B3CF.PC3         1100.   B3T3.PC3        -1100.
    D3T3.PC3  Q3T3.PC3           -1.
    D3CF.PC1  B3CF.PC1   -2282.10986   Q3CF.PC1           -1.
    D3CF.PC2  B3CF.PC2   -2282.10986   Q3CF.PC2           -1.
    D3CF.PC3  B3CF.PC3   -2282.10986   Q3CF.PC3           -1.
    D3NL.RON  B3NL.RON    -193.64426   B3RG.RON      193.6442
    D3NL.RON  Q3NL.RON           -1.
    D3LHSPAR  B3LHSPAR    -114.10548   Q3LHSPAR           -1.
    D3LHSARO  B3LHSARO    -114.10548   Q3LHSARO           -1.
    D3LHSRON  B3NL.RON      114.1054   B3LHSRON    -114.10548
    D3LHSRON  Q3LHSRON           -1.
    D3LHSSUL  B3LHSSUL    -114.10548   Q3LHSSUL           -1.
    D3LHSSPG  B3LHSSPG    -114.10548   Q3LHSSPG           -1.
    D3NH.PAR  B3NH.PAR    -699.12341   Q3NH.PAR           -1.
    D3NH.ARO  B3NH.ARO    -699.12341   B3RF....          -9.6
    D3NH.ARO  B3RF.RON     667.19952   Q3NH.ARO           -1.
    D3NH.SUL  B3NH.SUL    -699.12341   B3HO.SUL      219.1234
    D3NH.SUL  Q3NH.SUL           -1.
    D3NH.SPG  B3NH.SPG    -699.12341   B3HO.SPG      219.1234
    D3NH.SPG  Q3NH.SPG           -1.
    D3NDSPAR  B3NH.PAR      150.0629   B3NDSPAR    -150.06294
    D3NDSPAR  Q3NDSPAR           -1.
    D3NDSARO  B3NH.ARO      150.0629   B3NDSARO    -150.06294
    D3NDSARO  Q3NDSARO           -1.
    D3NDSSUL  B3NH.SUL      150.0629   B3NDSSUL    -150.06294
    D3NDSSUL  Q3NDSSUL           -1.
    D3NDSSPG  B3NH.SPG      150.0629   B3NDSSPG    -150.06294
    D3NDSSPG  Q3NDSSPG           -1.
    D3DS.SUL  B3DS.SUL    -643.01691   B3HO.SUL     333.10699
    D3DS.SUL  Q3DS.SUL           -1.
    D3DS.SPG  B3DS.SPG    -643.01691   B3HO.SPG     333.10699
    D3DS.SPG  Q3DS.SPG           -1.
    D3GO.SUL  B3GO.SUL    -580.26434   B3HO.SUL      431.9971
    D3GO.SUL  B3FO.SUL      148.2672   Q3GO.SUL           -1.
    D3GO.SPG  B3GO.SPG    -580.26434   B3HO.SPG      431.9971
    D3GO.SPG  B3FO.SPG      148.2672   Q3GO.SPG           -1.
    D3RD.SUL  B3RD.SUL    -243.23958   B3FO.SUL      243.2395
    D3RD.SUL  Q3RD.SUL           -1.
    D3RD.SPG  B3RD.SPG    -243.23958   B3FO.SPG      243.2395
    D3RD.SPG  Q3RD.SPG           -1.
    D3RF.RON  B3RF.RON    -452.31354   B3PG.RON     328.83139
    D3RF.RON  B3RG.RON      123.4821   Q3RF.RON           -1.
    D3CN.RON  B3PG.RON       402.229   B3RG.RON      282.8736
    D3CN.RON  B3CN.RON    -685.10266   Q3CN.RON           -1.
    D3PG.RON  B3PG.RON    -731.06049   Q3PG.RON           -1.
    D3RG.RON  B3RG.RON         -600.   Q3RG.RON           -1.
    D3HO.SUL  B3HO.SUL     -984.2276   Q3HO.SUL           -1.
    D3HO.SPG  B3HO.SPG     -984.2276   Q3HO.SPG           -1.
    D3FO.SUL  B3FO.SUL    -391.50681   Q3FO.SUL           -1.
    D3FO.SPG  B3FO.SPG    -391.50681   Q3FO.SPG           -1.
    D1RFSVRF  B1RF....         -21.6   B1RF.RON    2122.80005
    D1RFSVRF  V1RFSV             -1.
    D2RFSVRF  B2RF....     -116.9997   B2RF.RON    6470.99707
    D2RFSVRF  V2RFSV             -1.
    D3RFSVRF  B3RF....    -187.19952   B3RF.RON        10080.
    D3RFSVRF  V3RFSV             -1.
    S1T1.     B1T1....           -1.   B1T1.PC1           -.5
    S1T1.     B1T1.PC2           -.5
    S1T2.     B1T2....           -1.   B1T2.PC1        -.8999
    S1T2.     B1T2.PC2          -.04   B1T2.PC3          -.06
    S1T3.     B1T3....           -1.   B1T3.PC3           -1.
    S1CF.     B1CF....           -1.
    S1NL.     B1NL....           -1.   B1NL.RON       -76.727
    S1NH.     B1NH....           -1.   B1NH.PAR        -62.36
    S1NH.     B1NH.ARO       -10.819   B1NH.SUL        -.0352
    S1NH.     B1NH.SPG        -.7455
    S1DS.     B1DS....           -1.   B1DS.SUL        -.1552
    S1DS.     B1DS.SPG        -.8105
    S1RF.     B1RF....           -1.   B1RF.RON       -101.22
    S1CN.     B1CN....           -1.   B1CN.RON       -90.066
    S1PG.     COST              -52.   B1PG....           -1.
    S1PG.     B1PG.RON          -95.
    S1RG.     COST              -45.   B1RG....           -1.
    S1RG.     B1RG.RON          -87.
    S1HO.     COST              -35.   B1HO....           -1.
    S1HO.     B1HO.SUL        -.6732   B1HO.SPG        -.8481
    S1FO.     COST              -30.   B1FO....           -1.
    S1FO.     B1FO.SUL       -1.6804   B1FO.SPG        -.9336
    S2T1.     B2T1....           -1.   B2T1.PC1        -.5833
    S2T1.     B2T1.PC2        -.4166
    S2T2.     B2T2....           -1.   B2T2.PC1        -.4306
    S2T2.     B2T2.PC2        -.0025   B2T2.PC3        -.5668
    S2T3.     B2T3....           -1.   B2T3.PC3           -1.
    S2CF.     B2CF....           -1.
    S2NL.     B2NL....           -1.   B2NL.RON       -74.195
    S2NH.     B2NH....           -1.   B2NH.PAR        -60.87
    S2NH.     B2NH.ARO        -11.47   B2NH.SUL        -.0285
    S2NH.     B2NH.SPG        -.7552
    S2DS.     B2DS....           -1.   B2DS.SUL        -.1463
    S2DS.     B2DS.SPG        -.8175
    S2RF.     B2RF....           -1.   B2RF.RON       -99.974
    S2CN.     B2CN....           -1.   B2CN.RON       -89.365
    S2PG.     COST              -52.   B2PG....           -1.
    S2PG.     B2PG.RON          -95.
    S2RG.     COST              -45.   B2RG....           -1.
    S2RG.     B2RG.RON          -87.
    S2HO.     COST              -35.   B2HO....           -1.
    S2HO.     B2HO.SUL        -.6416   B2HO.SPG         -.831
    S2FO.     COST              -30.   B2FO....           -1.
    S2FO.     B2FO.SUL       -1.6826   B2FO.SPG        -.9348
    S3T1.     B3T1....           -1.   B3T1.PC1        -.4987
    S3T1.     B3T1.PC2        -.5019
    S3T2.     B3T2....           -1.   B3T2.PC1        -.0245
    S3T2.     B3T2.PC2        -.7105   B3T2.PC3        -.2637
    S3T3.     B3T3....           -1.   B3T3.PC3           -1.
    S3CF.     B3CF....           -1.   B3CF.PC2        -.0001
    S3NL.     B3NL....           -1.   B3NL.RON       -72.981
    S3NH.     B3NH....           -1.   B3NH.PAR       -58.926
    S3NH.     B3NH.ARO        -12.11   B3NH.SUL        -.0397
    S3NH.     B3NH.SPG        -.7662
    S3DS.     B3DS....           -1.   B3DS.SUL        -.1631
    S3DS.     B3DS.SPG        -.8263
    S3RF.     B3RF....           -1.   B3RF.RON       -99.975
    S3CN.     B3CN....           -1.   B3CN.RON       -90.932
    S3PG.     COST              -52.   B3PG....           -1.
    S3PG.     B3PG.RON          -95.
    S3RG.     COST              -45.   B3RG....           -1.
    S3RG.     B3RG.RON          -87.
    S3HO.     COST              -35.   B3HO....           -1.
    S3HO.     B3HO.SUL        -.5801   B3HO.SPG        -.8374
    S3FO.     COST              -30.   B3FO....           -1.
    S3FO.     B3FO.SUL       -1.6831   B3FO.SPG        -.9352
    I1T1.     COST                .2   B2T1....            1.
    I1T1.     B2T1.PC1            .5   B2T1.PC2            .5
    I1T1.     B1T1....           -1.   B1T1.PC1           -.5
    I1T1.     B1T1.PC2           -.5
    I1T2.     COST                .2   B1T2....           -1.
    I1T2.     B1T2.PC1        -.8999   B2T2....            1.
    I1T2.     B2T2.PC1         .8999   B1T2.PC2          -.04
    I1T2.     B2T2.PC2           .04   B2T2.PC3           .06
    I1T2.     B1T2.PC3          -.06
    I1T3.     COST                .2   B1T3....           -1.
    I1T3.     B2T3....            1.   B2T3.PC3            1.
    I1T3.     B1T3.PC3           -1.
    I1NL.     COST                .2   B1NL....           -1.
    I1NL.     B1NL.RON       -76.727   B2NL....            1.
    I1NL.     B2NL.RON        76.727
    I1NH.     COST                .2   B1NH....           -1.
    I1NH.     B1NH.PAR        -62.36   B1NH.ARO       -10.819
    I1NH.     B1NH.SUL        -.0352   B1NH.SPG        -.7455
    I1NH.     B2NH....            1.   B2NH.PAR         62.36
    I1NH.     B2NH.ARO        10.819   B2NH.SUL         .0352
    I1NH.     B2NH.SPG         .7455
    I1DS.     COST                .2   B1DS....           -1.
    I1DS.     B1DS.SUL        -.1552   B1DS.SPG        -.8105
    I1DS.     B2DS....            1.   B2DS.SUL         .1552
    I1DS.     B2DS.SPG         .8105
    I1GO.     COST                .2   B1GO....           -1.
    I1GO.     B1GO.SUL        -.9199   B1GO.SPG        -.8679
    I1GO.     B2GO....            1.   B2GO.SUL         .9199
    I1GO.     B2GO.SPG         .8679
    I1RD.     COST                .2   B1RD....           -1.
    I1RD.     B1RD.SUL       -1.7999   B1RD.SPG         -.944
    I1RD.     B2RD....            1.   B2RD.SUL        1.7999
    I1RD.     B2RD.SPG          .944
    I1RF.     COST                .2   B1RF....           -1.
    I1RF.     B1RF.RON       -101.22   B2RF....            1.
    I1RF.     B2RF.RON        101.22
    I1CL.     COST                .2   B1CL....           -1.
    I1CL.     B2CL....            1.
    I1CH.     COST                .2   B1CH....           -1.
    I1CH.     B2CH....            1.
    I1CN.     COST                .2   B1CN....           -1.
    I1CN.     B1CN.RON       -90.066   B2CN....            1.
    I1CN.     B2CN.RON        90.066
    I1PG.     COST                .2   B1PG....           -1.
    I1PG.     B1PG.RON          -95.   B2PG....            1.
    I1PG.     B2PG.RON           95.
    I1RG.     COST                .2   B1RG....           -1.
    I1RG.     B1RG.RON          -87.   B2RG....            1.
    I1RG.     B2RG.RON           87.
    I1HO.     COST                .2   B1HO....           -1.
    I1HO.     B1HO.SUL        -.6732   B1HO.SPG        -.8481
    I1HO.     B2HO....            1.   B2HO.SUL         .6732
    I1HO.     B2HO.SPG         .8481
    I1FO.     COST                .2   B1FO....           -1.
    I1FO.     B1FO.SUL       -1.6804   B1FO.SPG        -.9336
    I1FO.     B2FO....            1.   B2FO.SUL        1.6804
    I1FO.     B2FO.SPG         .9336
    I2T1.     COST                .2   B2T1....           -1.
    I2T1.     B2T1.PC1        -.5833   B3T1....            1.
    I2T1.     B3T1.PC1         .5833   B2T1.PC2        -.4166
    I2T1.     B3T1.PC2         .4166
    I2T2.     COST                .2   B2T2....           -1.
    I2T2.     B2T2.PC1        -.4306   B3T2....            1.
    I2T2.     B3T2.PC1         .4306   B2T2.PC2        -.0025
    I2T2.     B3T2.PC2         .0025   B2T2.PC3        -.5668
    I2T2.     B3T2.PC3         .5668
    I2T3.     COST                .2   B2T3....           -1.
    I2T3.     B3T3....            1.   B2T3.PC3           -1.
    I2T3.     B3T3.PC3            1.
    I2NL.     COST                .2   B2NL....           -1.
    I2NL.     B2NL.RON       -74.195   B3NL....            1.
    I2NL.     B3NL.RON        74.195
    I2NH.     COST                .2   B2NH....           -1.
    I2NH.     B2NH.PAR        -60.87   B2NH.ARO        -11.47
    I2NH.     B2NH.SUL        -.0285   B2NH.SPG        -.7552
    I2NH.     B3NH....            1.   B3NH.PAR         60.87
    I2NH.     B3NH.ARO         11.47   B3NH.SUL         .0285
    I2NH.     B3NH.SPG         .7552
    I2DS.     COST                .2   B2DS....           -1.
    I2DS.     B2DS.SUL        -.1463   B2DS.SPG        -.8175
    I2DS.     B3DS....            1.   B3DS.SUL         .1463
    I2DS.     B3DS.SPG         .8175
    I2GO.     COST                .2   B2GO....           -1.
    I2GO.     B2GO.SUL       -1.0897   B2GO.SPG        -.8768
    I2GO.     B3GO....            1.   B3GO.SUL        1.0897
    I2GO.     B3GO.SPG         .8768
    I2RD.     COST                .2   B2RD....           -1.
    I2RD.     B2RD.SUL       -1.9054   B2RD.SPG        -.9566
    I2RD.     B3RD....            1.   B3RD.SUL        1.9054
    I2RD.     B3RD.SPG         .9566
    I2RF.     COST                .2   B2RF....           -1.
    I2RF.     B2RF.RON       -99.974   B3RF....            1.
    I2RF.     B3RF.RON        99.974
    I2CL.     COST                .2   B2CL....           -1.
    I2CL.     B3CL....            1.
    I2CH.     COST                .2   B2CH....           -1.
    I2CH.     B3CH....            1.
    I2CN.     COST                .2   B2CN....           -1.
    I2CN.     B2CN.RON       -89.365   B3CN....            1.
    I2CN.     B3CN.RON        89.365
    I2PG.     COST                .2   B2PG....           -1.
    I2PG.     B2PG.RON          -95.   B3PG....            1.
    I2PG.     B3PG.RON           95.
    I2RG.     COST                .2   B2RG....           -1.
    I2RG.     B2RG.RON          -87.   B3RG....            1.
    I2RG.     B3RG.RON           87.
    I2HO.     COST                .2   B2HO....           -1.
    I2HO.     B2HO.SUL        -.6416   B2HO.SPG         -.831
    I2HO.     B3HO....            1.   B3HO.SUL         .6416
    I2HO.     B3HO.SPG          .831
    I2FO.     COST                .2   B2FO....           -1.
    I2FO.     B2FO.SUL       -1.6826   B2FO.SPG        -.9348
    I2FO.     B3FO....            1.   B3FO.SUL        1.6826
    I2FO.     B3FO.SPG         .9348
    I3T1.     COST                .2   B3T1....           -1.
    I3T1.     B3T1.PC1        -.4987   B3T1.PC2        -.5019
    I3T2.     COST                .2   B3T2....           -1.
    I3T2.     B3T2.PC1        -.0245   B3T2.PC2        -.7105
    I3T2.     B3T2.PC3        -.2637
    I3T3.     COST                .2   B3T3....           -1.
    I3T3.     B3T3.PC3           -1.
    I3NL.     COST                .2   B3NL....           -1.
    I3NL.     B3NL.RON       -72.981
    I3NH.     COST                .2   B3NH....           -1.
    I3NH.     B3NH.PAR       -58.926   B3NH.ARO        -12.11
    I3NH.     B3NH.SUL        -.0397   B3NH.SPG        -.7662
    I3DS.     COST                .2   B3DS....           -1.
    I3DS.     B3DS.SUL        -.1631   B3DS.SPG        -.8263
    I3GO.     COST                .2   B3GO....           -1.
    I3GO.     B3GO.SUL        -1.157   B3GO.SPG        -.8808
    I3RD.     COST                .2   B3RD....           -1.
    I3RD.     B3RD.SUL       -2.0041   B3RD.SPG        -.9684
    I3RF.     COST                .2   B3RF....           -1.
    I3RF.     B3RF.RON       -99.975
    I3CL.     COST                .2   B3CL....           -1.
    I3CH.     COST                .2   B3CH....           -1.
    I3CN.     COST                .2   B3CN....           -1.
    I3CN.     B3CN.RON       -90.932
    I3PG.     COST                .2   B3PG....           -1.
    I3PG.     B3PG.RON          -95.
    I3RG.     COST                .2   B3RG....           -1.
    I3RG.     B3RG.RON          -87.
    I3HO.     COST                .2   B3HO....           -1.
    I3HO.     B3HO.SUL        -.5801   B3HO.SPG        -.8374
    I3FO.     COST                .2   B3FO....           -1.
    I3FO.     B3FO.SUL       -1.6831   B3FO.SPG        -.9352
    Q1T1.PC1  Q1T1.PC1            1.
    Q2T1.PC1  Q2T1.PC1            1.
    Q3T1.PC1  Q3T1.PC1            1.
    Q1T1.PC2  Q1T1.PC2            1.
    Q2T1.PC2  Q2T1.PC2            1.
    Q3T1.PC2  Q3T1.PC2            1.
    Q1T1.PC3  Q1T1.PC3            1.
    Q2T1.PC3  Q2T1.PC3            1.
    Q3T1.PC3  Q3T1.PC3            1.
    Q1T2.PC1  Q1T2.PC1            1.
    Q2T2.PC1  Q2T2.PC1            1.
    Q3T2.PC1  Q3T2.PC1            1.
    Q1T2.PC2  Q1T2.PC2            1.
    Q2T2.PC2  Q2T2.PC2            1.
    Q3T2.PC2  Q3T2.PC2            1.
    Q1T2.PC3  Q1T2.PC3            1.
    Q2T2.PC3  Q2T2.PC3            1.
    Q3T2.PC3  Q3T2.PC3            1.
    Q1T3.PC1  Q1T3.PC1            1.
    Q2T3.PC1  Q2T3.PC1            1.
    Q3T3.PC1  Q3T3.PC1            1.
    Q1T3.PC2  Q1T3.PC2            1.
    Q2T3.PC2  Q2T3.PC2            1.
    Q3T3.PC2  Q3T3.PC2            1.
    Q1T3.PC3  Q1T3.PC3            1.
    Q2T3.PC3  Q2T3.PC3            1.
    Q3T3.PC3  Q3T3.PC3            1.
    Q1CF.PC1  Q1CF.PC1            1.
    Q2CF.PC1  Q2CF.PC1            1.
    Q3CF.PC1  Q3CF.PC1            1.
    Q1CF.PC2  Q1CF.PC2            1.
    Q2CF.PC2  Q2CF.PC2            1.
    Q3CF.PC2  Q3CF.PC2            1.
    Q1CF.PC3  Q1CF.PC3            1.
    Q2CF.PC3  Q2CF.PC3            1.
    Q3CF.PC3  Q3CF.PC3            1.
    Q1NL.RON  Q1NL.RON            1.
    Q2NL.RON  Q2NL.RON            1.
    Q3NL.RON  Q3NL.RON            1.
    Q1LHSPAR  Q1LHSPAR            1.
    Q2LHSPAR  Q2LHSPAR            1.
    Q3LHSPAR  Q3LHSPAR            1.
    Q1LHSARO  Q1LHSARO            1.
    Q2LHSARO  Q2LHSARO            1.
    Q3LHSARO  Q3LHSARO            1.
    Q1LHSRON  Q1LHSRON            1.
    Q2LHSRON  Q2LHSRON            1.
    Q3LHSRON  Q3LHSRON            1.
    Q1LHSSUL  Q1LHSSUL            1.
    Q2LHSSUL  Q2LHSSUL            1.
    Q3LHSSUL  Q3LHSSUL            1.
    Q1LHSSPG  Q1LHSSPG            1.
    Q2LHSSPG  Q2LHSSPG            1.
    Q3LHSSPG  Q3LHSSPG            1.
    Q1NH.PAR  Q1NH.PAR            1.
    Q2NH.PAR  Q2NH.PAR            1.
    Q3NH.PAR  Q3NH.PAR            1.
    Q1NH.ARO  Q1NH.ARO            1.
    Q2NH.ARO  Q2NH.ARO            1.
    Q3NH.ARO  Q3NH.ARO            1.
    Q1NH.SUL  Q1NH.SUL            1.
    Q2NH.SUL  Q2NH.SUL            1.
    Q3NH.SUL  Q3NH.SUL            1.
    Q1NH.SPG  Q1NH.SPG            1.
    Q2NH.SPG  Q2NH.SPG            1.
    Q3NH.SPG  Q3NH.SPG            1.
    Q1NDSPAR  Q1NDSPAR            1.
    Q2NDSPAR  Q2NDSPAR            1.
    Q3NDSPAR  Q3NDSPAR            1.
    Q1NDSARO  Q1NDSARO            1.
    Q2NDSARO  Q2NDSARO            1.
    Q3NDSARO  Q3NDSARO            1.
    Q1NDSSUL  Q1NDSSUL            1.
    Q2NDSSUL  Q2NDSSUL            1.
    Q3NDSSUL  Q3NDSSUL            1.
    Q1NDSSPG  Q1NDSSPG            1.
    Q2NDSSPG  Q2NDSSPG            1.
    Q3NDSSPG  Q3NDSSPG            1.
    Q1DS.SUL  Q1DS.SUL            1.
    Q2DS.SUL  Q2DS.SUL            1.
    Q3DS.SUL  Q3DS.SUL            1.
    Q1DS.SPG  Q1DS.SPG            1.
    Q2DS.SPG  Q2DS.SPG            1.
    Q3DS.SPG  Q3DS.SPG            1.
    Q1GO.SUL  Q1GO.SUL            1.
    Q2GO.SUL  Q2GO.SUL            1.
    Q3GO.SUL  Q3GO.SUL            1.
    Q1GO.SPG  Q1GO.SPG            1.
    Q2GO.SPG  Q2GO.SPG            1.
    Q3GO.SPG  Q3GO.SPG            1.
    Q1RD.SUL  Q1RD.SUL            1.
    Q2RD.SUL  Q2RD.SUL            1.
    Q3RD.SUL  Q3RD.SUL            1.
    Q1RD.SPG  Q1RD.SPG            1.
    Q2RD.SPG  Q2RD.SPG            1.
    Q3RD.SPG  Q3RD.SPG            1.
    Q1RF.RON  Q1RF.RON            1.
    Q2RF.RON  Q2RF.RON            1.
    Q3RF.RON  Q3RF.RON            1.
    Q1CN.RON  Q1CN.RON            1.
    Q2CN.RON  Q2CN.RON            1.
    Q3CN.RON  Q3CN.RON            1.
    Q1PG.RON  Q1PG.RON            1.
    Q2PG.RON  Q2PG.RON            1.
    Q3PG.RON  Q3PG.RON            1.
    Q1RG.RON  Q1RG.RON            1.
    Q2RG.RON  Q2RG.RON            1.
    Q3RG.RON  Q3RG.RON            1.
    Q1HO.SUL  Q1HO.SUL            1.
    Q2HO.SUL  Q2HO.SUL            1.
    Q3HO.SUL  Q3HO.SUL            1.
    Q1HO.SPG  Q1HO.SPG            1.
    Q2HO.SPG  Q2HO.SPG            1.
    Q3HO.SPG  Q3HO.SPG            1.
    Q1FO.SUL  Q1FO.SUL            1.
    Q2FO.SUL  Q2FO.SUL            1.
    Q3FO.SUL  Q3FO.SUL            1.
    Q1FO.SPG  Q1FO.SPG            1.
    Q2FO.SPG  Q2FO.SPG            1.
    Q3FO.SPG  Q3FO.SPG            1.
    V1RFSV    V1RFSV              1.
    V2RFSV    V2RFSV              1.
    V3RFSV    V3RFSV              1.
    K1CU      K1CU               -1.
    K1RF      K1RF               -1.
    K1CC      K1CC               -1.
    K2CU      K2CU               -1.
    K2RF      K2RF               -1.
    K2CC      K2CC               -1.
    K3CU      K3CU               -1.
    K3RF      K3RF               -1.
    K3CC      K3CC               -1.
    R1HOR     B1NH....           -.1   B1NH.PAR        -6.236
    R1HOR     B1NH.ARO       -1.0819   B1NH.SUL       -.00352
    R1HOR     B1NH.SPG       -.07455   B1DS....           -.1
    R1HOR     B1DS.SUL       -.01552   B1DS.SPG       -.08105
    R1HOR     B1GO....           -.8   B1GO.SUL       -.73592
    R1HOR     B1GO.SPG       -.69432   B1HO....            1.
    R1HOR     B1HO.SUL         .6732   B1HO.SPG         .8481
    R2HOR     B2NH....           -.1   B2NH.PAR        -6.087
    R2HOR     B2NH.ARO        -1.147   B2NH.SUL       -.00285
    R2HOR     B2NH.SPG       -.07552   B2DS....           -.1
    R2HOR     B2DS.SUL       -.01463   B2DS.SPG       -.08175
    R2HOR     B2GO....           -.8   B2GO.SUL       -.87176
    R2HOR     B2GO.SPG       -.70144   B2HO....            1.
    R2HOR     B2HO.SUL         .6416   B2HO.SPG          .831
    R3HOR     B3NH....           -.1   B3NH.PAR       -5.8926
    R3HOR     B3NH.ARO        -1.211   B3NH.SUL       -.00397
    R3HOR     B3NH.SPG    -.07662001   B3DS....           -.1
    R3HOR     B3DS.SUL       -.01631   B3DS.SPG       -.08263
    R3HOR     B3GO....           -.8   B3GO.SUL        -.9256
    R3HOR     B3GO.SPG       -.70464   B3HO....            1.
    R3HOR     B3HO.SUL         .5801   B3HO.SPG         .8374
    X1T1.     B1T1....            1.   B1T1.PC1            .5
    X1T1.     B1T1.PC2            .5
    X1T2.     B1T2....            1.   B1T2.PC2            .4
    X1T2.     B1T2.PC3            .6
    X1T3.     B1T3....            1.   B1T3.PC3            1.
    X1NL.     B1NL....            1.   B1NL.RON           72.
    X1NH.     B1NH....            1.   B1NH.PAR           64.
    X1NH.     B1NH.ARO           11.
RHS
    RHS00001  Q1T1.PC1            .5   Q1T1.PC2            .5
    RHS00001  Q1T2.PC1         .8999   Q1T2.PC2           .04
    RHS00001  Q1T2.PC3           .06   Q1T3.PC3            1.
    RHS00001  Q1NL.RON        76.727   Q1LHSPAR          67.5
    RHS00001  Q1LHSARO            7.   Q1LHSRON          69.5
    RHS00001  Q1LHSSUL         .0249   Q1LHSSPG         .7099
    RHS00001  Q1NH.PAR         62.36   Q1NH.ARO        10.819
    RHS00001  Q1NH.SUL         .0352   Q1NH.SPG         .7455
    RHS00001  Q1NDSPAR        59.083   Q1NDSARO           14.
    RHS00001  Q1NDSSUL         .0741   Q1NDSSPG         .7741
    RHS00001  Q1DS.SUL         .1552   Q1DS.SPG         .8105
    RHS00001  Q1GO.SUL         .9199   Q1GO.SPG         .8679
    RHS00001  Q1RD.SUL        1.7999   Q1RD.SPG          .944
    RHS00001  Q1RF.RON        101.22   Q1CN.RON        90.066
    RHS00001  Q1PG.RON           95.   Q1RG.RON           87.
    RHS00001  Q1HO.SUL         .6732   Q1HO.SPG         .8481
    RHS00001  Q1FO.SUL        1.6804   Q1FO.SPG         .9336
    RHS00001  Q2T1.PC1         .5833   Q2T1.PC2         .4166
    RHS00001  Q2T2.PC1         .4306   Q2T2.PC2         .0025
    RHS00001  Q2T2.PC3         .5668   Q2T3.PC3            1.
    RHS00001  Q2NL.RON        74.195   Q2LHSPAR        65.452
    RHS00001  Q2LHSARO        7.9949   Q2LHSRON        70.136
    RHS00001  Q2LHSSUL         .0313   Q2LHSSPG         .7199
    RHS00001  Q2NH.PAR         60.87   Q2NH.ARO         11.47
    RHS00001  Q2NH.SUL         .0285   Q2NH.SPG         .7552
    RHS00001  Q2NDSPAR        56.881   Q2NDSARO           14.
    RHS00001  Q2NDSSUL         .0813   Q2NDSSPG          .787
    RHS00001  Q2DS.SUL         .1463   Q2DS.SPG         .8175
    RHS00001  Q2GO.SUL        1.0897   Q2GO.SPG         .8768
    RHS00001  Q2RD.SUL        1.9054   Q2RD.SPG         .9566
    RHS00001  Q2RF.RON        99.974   Q2CN.RON        89.365
    RHS00001  Q2PG.RON           95.   Q2RG.RON           87.
    RHS00001  Q2HO.SUL         .6416   Q2HO.SPG          .831
    RHS00001  Q2FO.SUL        1.6826   Q2FO.SPG         .9348
    RHS00001  Q3T1.PC1         .4987   Q3T1.PC2         .5019
    RHS00001  Q3T2.PC1         .0245   Q3T2.PC2         .7105
    RHS00001  Q3T2.PC3         .2637   Q3T3.PC3            1.
    RHS00001  Q3CF.PC2         .0001   Q3NL.RON        72.981
    RHS00001  Q3LHSPAR        64.893   Q3LHSARO        7.5756
    RHS00001  Q3LHSRON        70.223   Q3LHSSUL         .0322
    RHS00001  Q3LHSSPG         .7157   Q3NH.PAR        58.926
    RHS00001  Q3NH.ARO         12.11   Q3NH.SUL         .0397
    RHS00001  Q3NH.SPG         .7662   Q3NDSPAR        56.025
    RHS00001  Q3NDSARO           14.   Q3NDSSUL         .0823
    RHS00001  Q3NDSSPG         .7877   Q3DS.SUL         .1631
    RHS00001  Q3DS.SPG         .8263   Q3GO.SUL         1.157
    RHS00001  Q3GO.SPG         .8808   Q3RD.SUL        2.0041
    RHS00001  Q3RD.SPG         .9684   Q3RF.RON        99.975
    RHS00001  Q3CN.RON        90.932   Q3PG.RON           95.
    RHS00001  Q3RG.RON           87.   Q3HO.SUL         .5801
    RHS00001  Q3HO.SPG         .8374   Q3FO.SUL        1.6831
    RHS00001  Q3FO.SPG         .9352   V1RFSV              1.
    RHS00001  V2RFSV              1.   V3RFSV              1.
BOUNDS
 LO XBOUND    A1C1.               0.
 UP XBOUND    A1C1.             400.
 LO XBOUND    A2C1.               0.
 UP XBOUND    A2C1.             600.
 LO XBOUND    A3C1.               0.
 UP XBOUND    A3C1.             600.
 LO XBOUND    A1C2.               0.
 UP XBOUND    A1C2.              .01
 LO XBOUND    A2C2.               0.
 UP XBOUND    A2C2.            2000.
 LO XBOUND    A3C2.               0.
 UP XBOUND    A3C2.            2000.
 LO XBOUND    A2C3.               0.
 UP XBOUND    A2C3.            1000.
 LO XBOUND    A3C3.               0.
 UP XBOUND    A3C3.            1000.
 LO XBOUND    D1T1.PC1           -1.
 UP XBOUND    D1T1.PC1            1.
 LO XBOUND    D1T1.PC2           -1.
 UP XBOUND    D1T1.PC2            1.
 LO XBOUND    D1T1.PC3           -1.
 UP XBOUND    D1T1.PC3            1.
 LO XBOUND    D1T2.PC1           -1.
 UP XBOUND    D1T2.PC1            1.
 LO XBOUND    D1T2.PC2           -1.
 UP XBOUND    D1T2.PC2            1.
 LO XBOUND    D1T2.PC3           -1.
 UP XBOUND    D1T2.PC3            1.
 LO XBOUND    D1T3.PC1           -1.
 UP XBOUND    D1T3.PC1            1.
 LO XBOUND    D1T3.PC2           -1.
 UP XBOUND    D1T3.PC2            1.
 LO XBOUND    D1T3.PC3           -1.
 UP XBOUND    D1T3.PC3            1.
 LO XBOUND    D1CF.PC1           -1.
 UP XBOUND    D1CF.PC1            1.
 LO XBOUND    D1CF.PC2           -1.
 UP XBOUND    D1CF.PC2            1.
 LO XBOUND    D1CF.PC3           -1.
 UP XBOUND    D1CF.PC3            1.
 LO XBOUND    D1NL.RON         -100.
 UP XBOUND    D1NL.RON          100.
 LO XBOUND    D1LHSPAR          -65.
 UP XBOUND    D1LHSPAR           65.
 LO XBOUND    D1LHSARO          -12.
 UP XBOUND    D1LHSARO           12.
 LO XBOUND    D1LHSRON         -100.
 UP XBOUND    D1LHSRON          100.
 LO XBOUND    D1LHSSUL           -2.
 UP XBOUND    D1LHSSUL            2.
 LO XBOUND    D1LHSSPG           -1.
 UP XBOUND    D1LHSSPG            1.
 LO XBOUND    D1NH.PAR          -65.
 UP XBOUND    D1NH.PAR           65.
 LO XBOUND    D1NH.ARO          -12.
 UP XBOUND    D1NH.ARO           12.
 LO XBOUND    D1NH.SUL           -2.
 UP XBOUND    D1NH.SUL            2.
 LO XBOUND    D1NH.SPG           -1.
 UP XBOUND    D1NH.SPG            1.
 LO XBOUND    D1NDSPAR          -65.
 UP XBOUND    D1NDSPAR           65.
 LO XBOUND    D1NDSARO          -12.
 UP XBOUND    D1NDSARO           12.
 LO XBOUND    D1NDSSUL           -2.
 UP XBOUND    D1NDSSUL            2.
 LO XBOUND    D1NDSSPG           -1.
 UP XBOUND    D1NDSSPG            1.
 LO XBOUND    D1DS.SUL           -2.
 UP XBOUND    D1DS.SUL            2.
 LO XBOUND    D1DS.SPG           -1.
 UP XBOUND    D1DS.SPG            1.
 LO XBOUND    D1GO.SUL           -2.
 UP XBOUND    D1GO.SUL            2.
 LO XBOUND    D1GO.SPG           -1.
 UP XBOUND    D1GO.SPG            1.
 LO XBOUND    D1RD.SUL           -2.
 UP XBOUND    D1RD.SUL            2.
 LO XBOUND    D1RD.SPG           -1.
 UP XBOUND    D1RD.SPG            1.
 LO XBOUND    D1RF.RON         -100.
 UP XBOUND    D1RF.RON          100.
 LO XBOUND    D1CN.RON         -100.
 UP XBOUND    D1CN.RON          100.
 LO XBOUND    D1PG.RON         -100.
 UP XBOUND    D1PG.RON          100.
 LO XBOUND    D1RG.RON         -100.
 UP XBOUND    D1RG.RON          100.
 LO XBOUND    D1HO.SUL           -2.
 UP XBOUND    D1HO.SUL            2.
 LO XBOUND    D1HO.SPG           -1.
 UP XBOUND    D1HO.SPG            1.
 LO XBOUND    D1FO.SUL           -2.
 UP XBOUND    D1FO.SUL            2.
 LO XBOUND    D1FO.SPG           -1.
 UP XBOUND    D1FO.SPG            1.
 LO XBOUND    D2T1.PC1           -1.
 UP XBOUND    D2T1.PC1            1.
 LO XBOUND    D2T1.PC2           -1.
 UP XBOUND    D2T1.PC2            1.
 LO XBOUND    D2T1.PC3           -1.
 UP XBOUND    D2T1.PC3            1.
 LO XBOUND    D2T2.PC1           -1.
 UP XBOUND    D2T2.PC1            1.
 LO XBOUND    D2T2.PC2           -1.
 UP XBOUND    D2T2.PC2            1.
 LO XBOUND    D2T2.PC3           -1.
 UP XBOUND    D2T2.PC3            1.
 LO XBOUND    D2T3.PC1           -1.
 UP XBOUND    D2T3.PC1            1.
 LO XBOUND    D2T3.PC2           -1.
 UP XBOUND    D2T3.PC2            1.
 LO XBOUND    D2T3.PC3           -1.
 UP XBOUND    D2T3.PC3            1.
 LO XBOUND    D2CF.PC1           -1.
 UP XBOUND    D2CF.PC1            1.
 LO XBOUND    D2CF.PC2           -1.
 UP XBOUND    D2CF.PC2            1.
 LO XBOUND    D2CF.PC3           -1.
 UP XBOUND    D2CF.PC3            1.
 LO XBOUND    D2NL.RON         -100.
 UP XBOUND    D2NL.RON          100.
 LO XBOUND    D2LHSPAR          -65.
 UP XBOUND    D2LHSPAR           65.
 LO XBOUND    D2LHSARO          -12.
 UP XBOUND    D2LHSARO           12.
 LO XBOUND    D2LHSRON         -100.
 UP XBOUND    D2LHSRON          100.
 LO XBOUND    D2LHSSUL           -2.
 UP XBOUND    D2LHSSUL            2.
 LO XBOUND    D2LHSSPG           -1.
 UP XBOUND    D2LHSSPG            1.
 LO XBOUND    D2NH.PAR          -65.
 UP XBOUND    D2NH.PAR           65.
 LO XBOUND    D2NH.ARO          -12.
 UP XBOUND    D2NH.ARO           12.
 LO XBOUND    D2NH.SUL           -2.
 UP XBOUND    D2NH.SUL            2.
 LO XBOUND    D2NH.SPG           -1.
 UP XBOUND    D2NH.SPG            1.
 LO XBOUND    D2NDSPAR          -65.
 UP XBOUND    D2NDSPAR           65.
 LO XBOUND    D2NDSARO          -12.
 UP XBOUND    D2NDSARO           12.
 LO XBOUND    D2NDSSUL           -2.
 UP XBOUND    D2NDSSUL            2.
 LO XBOUND    D2NDSSPG           -1.
 UP XBOUND    D2NDSSPG            1.
 LO XBOUND    D2DS.SUL           -2.
 UP XBOUND    D2DS.SUL            2.
 LO XBOUND    D2DS.SPG           -1.
 UP XBOUND    D2DS.SPG            1.
 LO XBOUND    D2GO.SUL           -2.
 UP XBOUND    D2GO.SUL            2.
 LO XBOUND    D2GO.SPG           -1.
 UP XBOUND    D2GO.SPG            1.
 LO XBOUND    D2RD.SUL           -2.
 UP XBOUND    D2RD.SUL            2.
 LO XBOUND    D2RD.SPG           -1.
 UP XBOUND    D2RD.SPG            1.
 LO XBOUND    D2RF.RON         -100.
 UP XBOUND    D2RF.RON          100.
 LO XBOUND    D2CN.RON         -100.
 UP XBOUND    D2CN.RON          100.
 LO XBOUND    D2PG.RON         -100.
 UP XBOUND    D2PG.RON          100.
 LO XBOUND    D2RG.RON         -100.
 UP XBOUND    D2RG.RON          100.
 LO XBOUND    D2HO.SUL           -2.
 UP XBOUND    D2HO.SUL            2.
 LO XBOUND    D2HO.SPG           -1.
 UP XBOUND    D2HO.SPG            1.
 LO XBOUND    D2FO.SUL           -2.
 UP XBOUND    D2FO.SUL            2.
 LO XBOUND    D2FO.SPG           -1.
 UP XBOUND    D2FO.SPG            1.
 LO XBOUND    D3T1.PC1           -1.
 UP XBOUND    D3T1.PC1            1.
 LO XBOUND    D3T1.PC2           -1.
 UP XBOUND    D3T1.PC2            1.
 LO XBOUND    D3T1.PC3           -1.
 UP XBOUND    D3T1.PC3            1.
 LO XBOUND    D3T2.PC1           -1.
 UP XBOUND    D3T2.PC1            1.
 LO XBOUND    D3T2.PC2           -1.
 UP XBOUND    D3T2.PC2            1.
 LO XBOUND    D3T2.PC3           -1.
 UP XBOUND    D3T2.PC3            1.
 LO XBOUND    D3T3.PC1           -1.
 UP XBOUND    D3T3.PC1            1.
 LO XBOUND    D3T3.PC2           -1.
 UP XBOUND    D3T3.PC2            1.
 LO XBOUND    D3T3.PC3           -1.
 UP XBOUND    D3T3.PC3            1.
 LO XBOUND    D3CF.PC1           -1.
 UP XBOUND    D3CF.PC1            1.
 LO XBOUND    D3CF.PC2           -1.
 UP XBOUND    D3CF.PC2            1.
 LO XBOUND    D3CF.PC3           -1.
 UP XBOUND    D3CF.PC3            1.
 LO XBOUND    D3NL.RON         -100.
 UP XBOUND    D3NL.RON          100.
 LO XBOUND    D3LHSPAR          -65.
 UP XBOUND    D3LHSPAR           65.
 LO XBOUND    D3LHSARO          -12.
 UP XBOUND    D3LHSARO           12.
 LO XBOUND    D3LHSRON         -100.
 UP XBOUND    D3LHSRON          100.
 LO XBOUND    D3LHSSUL           -2.
 UP XBOUND    D3LHSSUL            2.
 LO XBOUND    D3LHSSPG           -1.
 UP XBOUND    D3LHSSPG            1.
 LO XBOUND    D3NH.PAR          -65.
 UP XBOUND    D3NH.PAR           65.
 LO XBOUND    D3NH.ARO          -12.
 UP XBOUND    D3NH.ARO           12.
 LO XBOUND    D3NH.SUL           -2.
 UP XBOUND    D3NH.SUL            2.
 LO XBOUND    D3NH.SPG           -1.
 UP XBOUND    D3NH.SPG            1.
 LO XBOUND    D3NDSPAR          -65.
 UP XBOUND    D3NDSPAR           65.
 LO XBOUND    D3NDSARO          -12.
 UP XBOUND    D3NDSARO           12.
 LO XBOUND    D3NDSSUL           -2.
 UP XBOUND    D3NDSSUL            2.
 LO XBOUND    D3NDSSPG           -1.
 UP XBOUND    D3NDSSPG            1.
 LO XBOUND    D3DS.SUL           -2.
 UP XBOUND    D3DS.SUL            2.
 LO XBOUND    D3DS.SPG           -1.
 UP XBOUND    D3DS.SPG            1.
 LO XBOUND    D3GO.SUL           -2.
 UP XBOUND    D3GO.SUL            2.
 LO XBOUND    D3GO.SPG           -1.
 UP XBOUND    D3GO.SPG            1.
 LO XBOUND    D3RD.SUL           -2.
 UP XBOUND    D3RD.SUL            2.
 LO XBOUND    D3RD.SPG           -1.
 UP XBOUND    D3RD.SPG            1.
 LO XBOUND    D3RF.RON         -100.
 UP XBOUND    D3RF.RON          100.
 LO XBOUND    D3CN.RON         -100.
 UP XBOUND    D3CN.RON          100.
 LO XBOUND    D3PG.RON         -100.
 UP XBOUND    D3PG.RON          100.
 LO XBOUND    D3RG.RON         -100.
 UP XBOUND    D3RG.RON          100.
 LO XBOUND    D3HO.SUL           -2.
 UP XBOUND    D3HO.SUL            2.
 LO XBOUND    D3HO.SPG           -1.
 UP XBOUND    D3HO.SPG            1.
 LO XBOUND    D3FO.SUL           -2.
 UP XBOUND    D3FO.SUL            2.
 LO XBOUND    D3FO.SPG           -1.
 UP XBOUND    D3FO.SPG            1.
 LO XBOUND    D1RFSVRF           -.1
 UP XBOUND    D1RFSVRF            .1
 LO XBOUND    D2RFSVRF           -.1
 UP XBOUND    D2RFSVRF            .1
 LO XBOUND    D3RFSVRF           -.1
 UP XBOUND    D3RFSVRF            .1
 LO XBOUND    S1PG.              50.
 LO XBOUND    S1RG.             100.
 LO XBOUND    S1HO.              40.
 LO XBOUND    S1FO.              60.
 LO XBOUND    S2PG.             400.
 LO XBOUND    S2RG.             400.
 LO XBOUND    S2HO.             300.
 LO XBOUND    S2FO.              80.
 LO XBOUND    S3PG.             600.
 LO XBOUND    S3RG.             800.
 LO XBOUND    S3HO.             300.
 LO XBOUND    S3FO.             120.
 LO XBOUND    I1T1.               5.
 UP XBOUND    I1T1.             100.
 LO XBOUND    I1T2.              10.
 UP XBOUND    I1T2.             100.
 LO XBOUND    I1T3.               0.
 UP XBOUND    I1T3.             100.
 LO XBOUND    I1NL.               0.
 UP XBOUND    I1NL.             100.
 LO XBOUND    I1NH.               0.
 UP XBOUND    I1NH.             100.
 LO XBOUND    I1DS.               0.
 UP XBOUND    I1DS.             100.
 LO XBOUND    I1GO.               0.
 UP XBOUND    I1GO.             100.
 LO XBOUND    I1RD.               0.
 UP XBOUND    I1RD.             100.
 LO XBOUND    I1RF.               0.
 UP XBOUND    I1RF.             100.
 LO XBOUND    I1CL.               0.
 UP XBOUND    I1CL.             100.
 LO XBOUND    I1CH.               0.
 UP XBOUND    I1CH.             100.
 LO XBOUND    I1CN.               0.
 UP XBOUND    I1CN.             100.
 LO XBOUND    I1PG.               0.
 UP XBOUND    I1PG.             100.
 LO XBOUND    I1RG.               0.
 UP XBOUND    I1RG.             100.
 LO XBOUND    I1HO.               0.
 UP XBOUND    I1HO.             100.
 LO XBOUND    I1FO.               0.
 UP XBOUND    I1FO.             100.
 LO XBOUND    I2T1.               5.
 UP XBOUND    I2T1.             100.
 LO XBOUND    I2T2.              10.
 UP XBOUND    I2T2.             100.
 LO XBOUND    I2T3.               0.
 UP XBOUND    I2T3.             100.
 LO XBOUND    I2NL.               0.
 UP XBOUND    I2NL.             100.
 LO XBOUND    I2NH.               0.
 UP XBOUND    I2NH.             100.
 LO XBOUND    I2DS.               0.
 UP XBOUND    I2DS.             100.
 LO XBOUND    I2GO.               0.
 UP XBOUND    I2GO.             100.
 LO XBOUND    I2RD.               0.
 UP XBOUND    I2RD.             100.
 LO XBOUND    I2RF.               0.
 UP XBOUND    I2RF.             100.
 LO XBOUND    I2CL.               0.
 UP XBOUND    I2CL.             100.
 LO XBOUND    I2CH.               0.
 UP XBOUND    I2CH.             100.
 LO XBOUND    I2CN.               0.
 UP XBOUND    I2CN.             100.
 LO XBOUND    I2PG.               0.
 UP XBOUND    I2PG.             100.
 LO XBOUND    I2RG.               0.
 UP XBOUND    I2RG.             100.
 LO XBOUND    I2HO.               0.
 UP XBOUND    I2HO.             100.
 LO XBOUND    I2FO.               0.
 UP XBOUND    I2FO.             100.
 LO XBOUND    I3T1.               5.
 UP XBOUND    I3T1.             100.
 LO XBOUND    I3T2.              10.
 UP XBOUND    I3T2.             100.
 LO XBOUND    I3T3.               0.
 UP XBOUND    I3T3.             100.
 LO XBOUND    I3NL.               0.
 UP XBOUND    I3NL.             100.
 LO XBOUND    I3NH.               0.
 UP XBOUND    I3NH.             100.
 LO XBOUND    I3DS.               0.
 UP XBOUND    I3DS.             100.
 LO XBOUND    I3GO.               0.
 UP XBOUND    I3GO.             100.
 LO XBOUND    I3RD.               0.
 UP XBOUND    I3RD.             100.
 LO XBOUND    I3RF.               0.
 UP XBOUND    I3RF.             100.
 LO XBOUND    I3CL.               0.
 UP XBOUND    I3CL.             100.
 LO XBOUND    I3CH.               0.
 UP XBOUND    I3CH.             100.
 LO XBOUND    I3CN.               0.
 UP XBOUND    I3CN.             100.
 LO XBOUND    I3PG.               0.
 UP XBOUND    I3PG.             100.
 LO XBOUND    I3RG.               0.
 UP XBOUND    I3RG.             100.
 LO XBOUND    I3HO.               0.
 UP XBOUND    I3HO.             100.
 LO XBOUND    I3FO.               0.
 UP XBOUND    I3FO.             100.
 LO XBOUND    Q1T1.PC1            0.
 UP XBOUND    Q1T1.PC1            1.
 LO XBOUND    Q2T1.PC1            0.
 UP XBOUND    Q2T1.PC1            1.
 LO XBOUND    Q3T1.PC1            0.
 UP XBOUND    Q3T1.PC1            1.
 LO XBOUND    Q1T1.PC2            0.
 UP XBOUND    Q1T1.PC2            1.
 LO XBOUND    Q2T1.PC2            0.
 UP XBOUND    Q2T1.PC2            1.
 LO XBOUND    Q3T1.PC2            0.
 UP XBOUND    Q3T1.PC2            1.
 LO XBOUND    Q1T1.PC3            0.
 UP XBOUND    Q1T1.PC3            1.
 LO XBOUND    Q2T1.PC3            0.
 UP XBOUND    Q2T1.PC3            1.
 LO XBOUND    Q3T1.PC3            0.
 UP XBOUND    Q3T1.PC3            1.
 LO XBOUND    Q1T2.PC1            0.
 UP XBOUND    Q1T2.PC1            1.
 LO XBOUND    Q2T2.PC1            0.
 UP XBOUND    Q2T2.PC1            1.
 LO XBOUND    Q3T2.PC1            0.
 UP XBOUND    Q3T2.PC1            1.
 LO XBOUND    Q1T2.PC2            0.
 UP XBOUND    Q1T2.PC2            1.
 LO XBOUND    Q2T2.PC2            0.
 UP XBOUND    Q2T2.PC2            1.
 LO XBOUND    Q3T2.PC2            0.
 UP XBOUND    Q3T2.PC2            1.
 LO XBOUND    Q1T2.PC3            0.
 UP XBOUND    Q1T2.PC3            1.
 LO XBOUND    Q2T2.PC3            0.
 UP XBOUND    Q2T2.PC3            1.
 LO XBOUND    Q3T2.PC3            0.
 UP XBOUND    Q3T2.PC3            1.
 LO XBOUND    Q1T3.PC1            0.
 UP XBOUND    Q1T3.PC1            1.
 LO XBOUND    Q2T3.PC1            0.
 UP XBOUND    Q2T3.PC1            1.
 LO XBOUND    Q3T3.PC1            0.
 UP XBOUND    Q3T3.PC1            1.
 LO XBOUND    Q1T3.PC2            0.
 UP XBOUND    Q1T3.PC2            1.
 LO XBOUND    Q2T3.PC2            0.
 UP XBOUND    Q2T3.PC2            1.
 LO XBOUND    Q3T3.PC2            0.
 UP XBOUND    Q3T3.PC2            1.
 LO XBOUND    Q1T3.PC3            0.
 UP XBOUND    Q1T3.PC3            1.
 LO XBOUND    Q2T3.PC3            0.
 UP XBOUND    Q2T3.PC3            1.
 LO XBOUND    Q3T3.PC3            0.
 UP XBOUND    Q3T3.PC3            1.
 LO XBOUND    Q1NL.RON            0.
 UP XBOUND    Q1NL.RON         95.01
 LO XBOUND    Q2NL.RON            0.
 UP XBOUND    Q2NL.RON         95.01
 LO XBOUND    Q3NL.RON            0.
 UP XBOUND    Q3NL.RON         95.01
 LO XBOUND    Q1NH.PAR            0.
 UP XBOUND    Q1NH.PAR         80.01
 LO XBOUND    Q2NH.PAR            0.
 UP XBOUND    Q2NH.PAR         80.01
 LO XBOUND    Q3NH.PAR            0.
 UP XBOUND    Q3NH.PAR         80.01
 LO XBOUND    Q1NH.ARO            0.
 UP XBOUND    Q1NH.ARO         16.01
 LO XBOUND    Q2NH.ARO            0.
 UP XBOUND    Q2NH.ARO         16.01
 LO XBOUND    Q3NH.ARO            0.
 UP XBOUND    Q3NH.ARO         16.01
 LO XBOUND    Q1RF.RON            0.
 UP XBOUND    Q1RF.RON        103.01
 LO XBOUND    Q2RF.RON            0.
 UP XBOUND    Q2RF.RON        103.01
 LO XBOUND    Q3RF.RON            0.
 UP XBOUND    Q3RF.RON        103.01
 LO XBOUND    Q1CN.RON            0.
 UP XBOUND    Q1CN.RON         94.01
 LO XBOUND    Q2CN.RON            0.
 UP XBOUND    Q2CN.RON         94.01
 LO XBOUND    Q3CN.RON            0.
 UP XBOUND    Q3CN.RON         94.01
 LO XBOUND    Q1PG.RON           95.
 UP XBOUND    Q1PG.RON        105.01
 LO XBOUND    Q2PG.RON           95.
 UP XBOUND    Q2PG.RON        105.01
 LO XBOUND    Q3PG.RON           95.
 UP XBOUND    Q3PG.RON        105.01
 LO XBOUND    Q1RG.RON           87.
 UP XBOUND    Q1RG.RON        100.01
 LO XBOUND    Q2RG.RON           87.
 UP XBOUND    Q2RG.RON        100.01
 LO XBOUND    Q3RG.RON           87.
 UP XBOUND    Q3RG.RON        100.01
 LO XBOUND    Q1HO.SUL            0.
 UP XBOUND    Q1HO.SUL        .67848
 LO XBOUND    Q2HO.SUL            0.
 UP XBOUND    Q2HO.SUL         .6648
 LO XBOUND    Q3HO.SUL            0.
 UP XBOUND    Q3HO.SUL        .66992
 LO XBOUND    Q1FO.SUL            0.
 UP XBOUND    Q1FO.SUL       1.68048
 LO XBOUND    Q2FO.SUL            0.
 UP XBOUND    Q2FO.SUL       1.68264
 LO XBOUND    Q3FO.SUL            0.
 UP XBOUND    Q3FO.SUL       1.68336
 LO XBOUND    V1RFSV              0.
 UP XBOUND    V1RFSV              1.
 LO XBOUND    V2RFSV              0.
 UP XBOUND    V2RFSV              1.
 LO XBOUND    V3RFSV              0.
 UP XBOUND    V3RFSV              1.
 LO XBOUND    K1CU                0.
 UP XBOUND    K1CU              150.
 LO XBOUND    K1RF                0.
 UP XBOUND    K1RF               30.
 LO XBOUND    K1CC                0.
 UP XBOUND    K1CC               70.
 LO XBOUND    K2CU                0.
 UP XBOUND    K2CU              150.
 LO XBOUND    K2RF                0.
 UP XBOUND    K2RF               30.
 LO XBOUND    K2CC                0.
 UP XBOUND    K2CC               70.
 LO XBOUND    K3CU                0.
 UP XBOUND    K3CU              150.
 LO XBOUND    K3RF                0.
 UP XBOUND    K3RF               30.
 LO XBOUND    K3CC                0.
 UP XBOUND    K3CC               70.
 FX XBOUND    X1T1.             600.
 FX XBOUND    X1T2.              10.
 FX XBOUND    X1T3.               1.
 FX XBOUND    X1NL.               0.
 FX XBOUND    X1NH.               0.
ENDATA
