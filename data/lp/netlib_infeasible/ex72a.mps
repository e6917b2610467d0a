NAME          EX72A
ROWS
 N  OBJECT
 E  P0000000
 E  P0001000
 E  P0002000
 E  P0002001
 E  P0003000
 E  P0003001
 E  P0004000
 E  P0005000
 E  P0005001
 E  P0006000
 E  P0006001
 E  P0007000
 E  P0008000
 E  P0009000
 E  P0009001
 E  P0010000
 E  P0010001
 E  P0011000
 E  P0012000
 E  P0013000
 E  P0014000
 E  P0014001
 E  P0015000
 E  P0015001
 E  P0016000
 E  P0017000
 E  P0017001
 E  P0018000
 E  P0018001
 E  P0019000
 E  P0020000
 E  P0021000
 E  P0022000
 E  P0022001
 E  P0023000
 E  P0023001
 E  P0024000
 E  P0025000
 E  P0026000
 E  P0027000
 E  P0028000
 E  P0028001
 E  P0029000
 E  P0029001
 E  P0030000
 E  P0031000
 E  P0032000
 E  P0033000
 E  P0034000
 E  P0035000
 E  P0036000
 E  P0036001
 E  P0037000
 E  P0037001
 E  P0038000
 E  P0038001
 E  P0039000
 E  P0039001
 E  P0040000
 E  P0041000
 E  P0042000
 E  P0043000
 E  P0044000
 E  P0045000
 E  P0046000
 E  P0046001
 E  P0047000
 E  P0047001
 E  P0048000
 E  P0048001
 E  P0049000
 E  P0049001
 E  P0050000
 E  P0051000
 E  P0052000
 E  P0053000
 E  P0053001
 E  P0054000
 E  P0054001
 E  P0055000
 E  P0055001
 E  P0056000
 E  P0057000
 E  P0058000
 E  P0059000
 E  P0060000
 E  P0060001
 E  P0061000
 E  P0061001
 E  P0062000
 E  P0062001
 E  P0063000
 E  P0064000
 E  P0065000
 E  P0066000
 E  P0066001
 E  P0067000
 E  P0068000
 E  P0068001
 E  P0069000
 E  P0069001
 E  P0070000
 E  P0071000
 E  P0072000
 E  P0072001
 E  P0073000
 E  P0073001
 E  P0074000
 E  P0075000
 E  P0076000
 E  P0077000
 E  P0078000
 E  P0079000
 E  P0080000
 E  P0080001
 E  P0081000
 E  P0081001
 E  P0082000
 E  P0082001
 E  P0083000
 E  P0083001
 E  P0084000
 E  P0085000
 E  P0086000
 E  P0087000
 E  P0088000
 E  R0000
 E  R0001
 E  R0002
 E  R0003
 E  R0004
 E  R0005
 E  R0006
 E  R0007
 E  R0008
 E  R0009
 E  R0010
 E  R0011
 E  R0012
 E  R0013
 E  R0014
 E  R0015
 E  R0016
 E  R0017
 E  R0018
 E  R0019
 E  R0020
 E  R0021
 E  R0022
 E  R0023
 E  R0024
 E  R0025
 E  R0026
 E  R0027
 E  R0028
 E  R0029
 E  R0030
 E  R0031
 E  R0032
 E  R0033
 E  R0034
 E  R0035
 E  R0036
 E  R0037
 E  R0038
 E  R0039
 E  R0040
 E  R0041
 E  R0042
 E  R0043
 E  R0044
 E  R0045
 E  R0046
 E  R0047
 E  R0048
 E  R0049
 E  R0050
 E  R0051
 E  R0052
 E  R0053
 E  R0054
 E  R0055
 E  R0056
 E  R0057
 E  R0058
 E  R0059
 E  R0060
 E  R0061
 E  R0062
 E  R0063
 E  R0064
 E  R0065
 E  R0066
 E  R0067
 E  R0068
 E  R0069
 E  R0070
COLUMNS
    E0000     OBJECT              1.   P0000000           -1.
    E0000     R0000              -1.
    E0001     OBJECT              1.   P0000000            1.
    E0001     R0056               1.
    E0002     OBJECT              1.   P0001000           -1.
    E0002     R0003              -1.
    E0003     OBJECT              1.   P0001000            1.
    E0003     R0008               1.
    E0004     OBJECT              1.   P0002001           -1.
    E0004     R0001              -1.
    E0005     OBJECT              1.   P0002000           -1.
    E0005     R0003               1.
    E0006     OBJECT              1.   P0002000            1.
    E0006     P0002001            1.   R0069               1.
    E0007     OBJECT              1.   P0003001           -1.
    E0007     R0002              -1.
    E0008     OBJECT              1.   P0003000           -1.
    E0008     R0070              -1.
    E0009     OBJECT              1.   P0003000            1.
    E0009     P0003001            1.   R0001               1.
    E0010     OBJECT              1.   P0004000           -1.
    E0010     R0003              -1.
    E0011     OBJECT              1.   P0004000            1.
    E0011     R0002               1.
    E0012     OBJECT              1.   P0005001           -1.
    E0012     R0004              -1.
    E0013     OBJECT              1.   P0005000           -1.
    E0013     R0008               1.
    E0014     OBJECT              1.   P0005000            1.
    E0014     P0005001            1.   R0069               1.
    E0015     OBJECT              1.   P0006001           -1.
    E0015     R0005              -1.
    E0016     OBJECT              1.   P0006000           -1.
    E0016     R0070              -1.
    E0017     OBJECT              1.   P0006000            1.
    E0017     P0006001            1.   R0004               1.
    E0018     OBJECT              1.   P0007000           -1.
    E0018     R0006              -1.
    E0019     OBJECT              1.   P0007000            1.
    E0019     R0005               1.
    E0020     OBJECT              1.   P0008000           -1.
    E0020     R0006              -1.
    E0021     OBJECT              1.   P0008000            1.
    E0021     R0003               1.
    E0022     OBJECT              1.   P0009001           -1.
    E0022     R0007              -1.
    E0023     OBJECT              1.   P0009000           -1.
    E0023     R0006               1.
    E0024     OBJECT              1.   P0009000            1.
    E0024     P0009001            1.   R0013               1.
    E0025     OBJECT              1.   P0010001           -1.
    E0025     R0008              -1.
    E0026     OBJECT              1.   P0010000           -1.
    E0026     R0018              -1.
    E0027     OBJECT              1.   P0010000            1.
    E0027     P0010001            1.   R0007               1.
    E0028     OBJECT              1.   P0011000           -1.
    E0028     R0013              -1.
    E0029     OBJECT              1.   P0011000            1.
    E0029     R0011               1.
    E0030     OBJECT              1.   P0012000           -1.
    E0030     R0011              -1.
    E0031     OBJECT              1.   P0012000            1.
    E0031     R0027               1.
    E0032     OBJECT              1.   P0013000           -1.
    E0032     R0012              -1.
    E0033     OBJECT              1.   P0013000            1.
    E0033     R0011               1.
    E0034     OBJECT              1.   P0014001           -1.
    E0034     R0009              -1.
    E0035     OBJECT              1.   P0014000           -1.
    E0035     R0027               1.
    E0036     OBJECT              1.   P0014000            1.
    E0036     P0014001            1.   R0006               1.
    E0037     OBJECT              1.   P0015001           -1.
    E0037     R0008              -1.
    E0038     OBJECT              1.   P0015000           -1.
    E0038     R0010              -1.
    E0039     OBJECT              1.   P0015000            1.
    E0039     P0015001            1.   R0009               1.
    E0040     OBJECT              1.   P0016000           -1.
    E0040     R0011              -1.
    E0041     OBJECT              1.   P0016000            1.
    E0041     R0010               1.
    E0042     OBJECT              1.   P0017001           -1.
    E0042     R0014              -1.
    E0043     OBJECT              1.   P0017000           -1.
    E0043     R0020               1.
    E0044     OBJECT              1.   P0017000            1.
    E0044     P0017001            1.   R0006               1.
    E0045     OBJECT              1.   P0018001           -1.
    E0045     R0015              -1.
    E0046     OBJECT              1.   P0018000           -1.
    E0046     R0008              -1.
    E0047     OBJECT              1.   P0018000            1.
    E0047     P0018001            1.   R0014               1.
    E0048     OBJECT              1.   P0019000           -1.
    E0048     R0016              -1.
    E0049     OBJECT              1.   P0019000            1.
    E0049     R0015               1.
    E0050     OBJECT              1.   P0020000           -1.
    E0050     R0016              -1.
    E0051     OBJECT              1.   P0020000            1.
    E0051     R0020               1.
    E0052     OBJECT              1.   P0021000           -1.
    E0052     R0017              -1.
    E0053     OBJECT              1.   P0021000            1.
    E0053     R0016               1.
    E0054     OBJECT              1.   P0022001           -1.
    E0054     R0021              -1.
    E0055     OBJECT              1.   P0022000           -1.
    E0055     R0017               1.
    E0056     OBJECT              1.   P0022000            1.
    E0056     P0022001            1.   R0035               1.
    E0057     OBJECT              1.   P0023001           -1.
    E0057     R0022              -1.
    E0058     OBJECT              1.   P0023000           -1.
    E0058     R0017               1.
    E0059     OBJECT              1.   P0023000            1.
    E0059     P0023001            1.   R0035               1.
    E0060     OBJECT              1.   P0024000           -1.
    E0060     R0023              -1.
    E0061     OBJECT              1.   P0024000            1.
    E0061     R0018               1.
    E0062     OBJECT              1.   P0025000           -1.
    E0062     R0024              -1.
    E0063     OBJECT              1.   P0025000            1.
    E0063     R0013               1.
    E0064     OBJECT              1.   P0026000           -1.
    E0064     R0025              -1.
    E0065     OBJECT              1.   P0026000            1.
    E0065     R0023               1.
    E0066     OBJECT              1.   P0027000           -1.
    E0066     R0025              -1.
    E0067     OBJECT              1.   P0027000            1.
    E0067     R0024               1.
    E0068     OBJECT              1.   P0028001           -1.
    E0068     R0019              -1.
    E0069     OBJECT              1.   P0028000           -1.
    E0069     R0030              -1.
    E0070     OBJECT              1.   P0028000            1.
    E0070     P0028001            1.   R0021               1.
    E0071     OBJECT              1.   P0029001           -1.
    E0071     R0019              -1.
    E0072     OBJECT              1.   P0029000           -1.
    E0072     R0031              -1.
    E0073     OBJECT              1.   P0029000            1.
    E0073     P0029001            1.   R0022               1.
    E0074     OBJECT              1.   P0030000           -1.
    E0074     R0027              -1.
    E0075     OBJECT              1.   P0030000            1.
    E0075     R0020               1.
    E0076     OBJECT              1.   P0031000           -1.
    E0076     R0020              -1.
    E0077     OBJECT              1.   P0031000            1.
    E0077     R0019               1.
    E0078     OBJECT              1.   P0032000           -1.
    E0078     R0020              -1.
    E0079     OBJECT              1.   P0032000            1.
    E0079     R0026               1.
    E0080     OBJECT              1.   P0033000           -1.
    E0080     R0026              -1.
    E0081     OBJECT              1.   P0033000            1.
    E0081     R0025               1.
    E0082     OBJECT              1.   P0034000           -1.
    E0082     R0026              -1.
    E0083     OBJECT              1.   P0034000            1.
    E0083     R0013               1.
    E0084     OBJECT              1.   P0035000           -1.
    E0084     R0027              -1.
    E0085     OBJECT              1.   P0035000            1.
    E0085     R0026               1.
    E0086     OBJECT              1.   P0036001           -1.
    E0086     R0028              -1.
    E0087     OBJECT              1.   P0036000           -1.
    E0087     R0035               1.
    E0088     OBJECT              1.   P0036000            1.
    E0088     P0036001            1.   R0012               1.
    E0089     OBJECT              1.   P0037001           -1.
    E0089     R0029              -1.
    E0090     OBJECT              1.   P0037000           -1.
    E0090     R0035               1.
    E0091     OBJECT              1.   P0037000            1.
    E0091     P0037001            1.   R0012               1.
    E0092     OBJECT              1.   P0038001           -1.
    E0092     R0030              -1.
    E0093     OBJECT              1.   P0038000           -1.
    E0093     R0013              -1.
    E0094     OBJECT              1.   P0038000            1.
    E0094     P0038001            1.   R0028               1.
    E0095     OBJECT              1.   P0039001           -1.
    E0095     R0031              -1.
    E0096     OBJECT              1.   P0039000           -1.
    E0096     R0013              -1.
    E0097     OBJECT              1.   P0039000            1.
    E0097     P0039001            1.   R0029               1.
    E0098     OBJECT              1.   P0040000           -1.
    E0098     R0032              -1.
    E0099     OBJECT              1.   P0040000            1.
    E0099     R0030               1.
    E0100     OBJECT              1.   P0041000           -1.
    E0100     R0033              -1.
    E0101     OBJECT              1.   P0041000            1.
    E0101     R0031               1.
    E0102     OBJECT              1.   P0042000           -1.
    E0102     R0034              -1.
    E0103     OBJECT              1.   P0042000            1.
    E0103     R0032               1.
    E0104     OBJECT              1.   P0043000           -1.
    E0104     R0034              -1.
    E0105     OBJECT              1.   P0043000            1.
    E0105     R0033               1.
    E0106     OBJECT              1.   P0044000           -1.
    E0106     R0034              -1.
    E0107     OBJECT              1.   P0044000            1.
    E0107     R0035               1.
    E0108     OBJECT              1.   P0045000           -1.
    E0108     R0040              -1.
    E0109     OBJECT              1.   P0045000            1.
    E0109     R0043               1.
    E0110     OBJECT              1.   P0046001           -1.
    E0110     R0038              -1.
    E0111     OBJECT              1.   P0046000           -1.
    E0111     R0040               1.
    E0112     OBJECT              1.   P0046000            1.
    E0112     P0046001            1.   R0034               1.
    E0113     OBJECT              1.   P0047001           -1.
    E0113     R0036              -1.
    E0114     OBJECT              1.   P0047000           -1.
    E0114     R0043               1.
    E0115     OBJECT              1.   P0047000            1.
    E0115     P0047001            1.   R0034               1.
    E0116     OBJECT              1.   P0048001           -1.
    E0116     R0037              -1.
    E0117     OBJECT              1.   P0048000           -1.
    E0117     R0035              -1.
    E0118     OBJECT              1.   P0048000            1.
    E0118     P0048001            1.   R0036               1.
    E0119     OBJECT              1.   P0049001           -1.
    E0119     R0039              -1.
    E0120     OBJECT              1.   P0049000           -1.
    E0120     R0035              -1.
    E0121     OBJECT              1.   P0049000            1.
    E0121     P0049001            1.   R0038               1.
    E0122     OBJECT              1.   P0050000           -1.
    E0122     R0040              -1.
    E0123     OBJECT              1.   P0050000            1.
    E0123     R0039               1.
    E0124     OBJECT              1.   P0051000           -1.
    E0124     R0041              -1.
    E0125     OBJECT              1.   P0051000            1.
    E0125     R0037               1.
    E0126     OBJECT              1.   P0052000           -1.
    E0126     R0041              -1.
    E0127     OBJECT              1.   P0052000            1.
    E0127     R0040               1.
    E0128     OBJECT              1.   P0053001           -1.
    E0128     R0042              -1.
    E0129     OBJECT              1.   P0053000           -1.
    E0129     R0041               1.
    E0130     OBJECT              1.   P0053000            1.
    E0130     P0053001            1.   R0056               1.
    E0131     OBJECT              1.   P0054001           -1.
    E0131     R0043              -1.
    E0132     OBJECT              1.   P0054000           -1.
    E0132     R0057              -1.
    E0133     OBJECT              1.   P0054000            1.
    E0133     P0054001            1.   R0042               1.
    E0134     OBJECT              1.   P0055001           -1.
    E0134     R0052              -1.
    E0135     OBJECT              1.   P0055000           -1.
    E0135     R0062               1.
    E0136     OBJECT              1.   P0055000            1.
    E0136     P0055001            1.   R0041               1.
    E0137     OBJECT              1.   P0056000           -1.
    E0137     R0051              -1.
    E0138     OBJECT              1.   P0056000            1.
    E0138     R0050               1.
    E0139     OBJECT              1.   P0057000           -1.
    E0139     R0062              -1.
    E0140     OBJECT              1.   P0057000            1.
    E0140     R0051               1.
    E0141     OBJECT              1.   P0058000           -1.
    E0141     R0046              -1.
    E0142     OBJECT              1.   P0058000            1.
    E0142     R0045               1.
    E0143     OBJECT              1.   P0059000           -1.
    E0143     R0046              -1.
    E0144     OBJECT              1.   P0059000            1.
    E0144     R0051               1.
    E0145     OBJECT              1.   P0060001           -1.
    E0145     R0044              -1.
    E0146     OBJECT              1.   P0060000           -1.
    E0146     R0051               1.
    E0147     OBJECT              1.   P0060000            1.
    E0147     P0060001            1.   R0041               1.
    E0148     OBJECT              1.   P0061001           -1.
    E0148     R0045              -1.
    E0149     OBJECT              1.   P0061000           -1.
    E0149     R0043              -1.
    E0150     OBJECT              1.   P0061000            1.
    E0150     P0061001            1.   R0044               1.
    E0151     OBJECT              1.   P0062001           -1.
    E0151     R0053              -1.
    E0152     OBJECT              1.   P0062000           -1.
    E0152     R0043              -1.
    E0153     OBJECT              1.   P0062000            1.
    E0153     P0062001            1.   R0052               1.
    E0154     OBJECT              1.   P0063000           -1.
    E0154     R0054              -1.
    E0155     OBJECT              1.   P0063000            1.
    E0155     R0053               1.
    E0156     OBJECT              1.   P0064000           -1.
    E0156     R0054              -1.
    E0157     OBJECT              1.   P0064000            1.
    E0157     R0062               1.
    E0158     OBJECT              1.   P0065000           -1.
    E0158     R0055              -1.
    E0159     OBJECT              1.   P0065000            1.
    E0159     R0054               1.
    E0160     OBJECT              1.   P0066001           -1.
    E0160     R0056              -1.
    E0161     OBJECT              1.   P0066000           -1.
    E0161     R0054               1.
    E0162     OBJECT              1.   P0066000            1.
    E0162     P0066001            1.   R0000               1.
    E0163     OBJECT              1.   P0067000           -1.
    E0163     R0047              -1.
    E0164     OBJECT              1.   P0067000            1.
    E0164     R0046               1.
    E0165     OBJECT              1.   P0068001           -1.
    E0165     R0048              -1.
    E0166     OBJECT              1.   P0068000           -1.
    E0166     R0047               1.
    E0167     OBJECT              1.   P0068000            1.
    E0167     P0068001            1.   R0070               1.
    E0168     OBJECT              1.   P0069001           -1.
    E0168     R0049              -1.
    E0169     OBJECT              1.   P0069000           -1.
    E0169     R0047               1.
    E0170     OBJECT              1.   P0069000            1.
    E0170     P0069001            1.   R0070               1.
    E0171     OBJECT              1.   P0070000           -1.
    E0171     R0058              -1.
    E0172     OBJECT              1.   P0070000            1.
    E0172     R0057               1.
    E0173     OBJECT              1.   P0071000           -1.
    E0173     R0059              -1.
    E0174     OBJECT              1.   P0071000            1.
    E0174     R0056               1.
    E0175     OBJECT              1.   P0072001           -1.
    E0175     R0050              -1.
    E0176     OBJECT              1.   P0072000           -1.
    E0176     R0065              -1.
    E0177     OBJECT              1.   P0072000            1.
    E0177     P0072001            1.   R0048               1.
    E0178     OBJECT              1.   P0073001           -1.
    E0178     R0050              -1.
    E0179     OBJECT              1.   P0073000           -1.
    E0179     R0066              -1.
    E0180     OBJECT              1.   P0073000            1.
    E0180     P0073001            1.   R0049               1.
    E0181     OBJECT              1.   P0074000           -1.
    E0181     R0060              -1.
    E0182     OBJECT              1.   P0074000            1.
    E0182     R0058               1.
    E0183     OBJECT              1.   P0075000           -1.
    E0183     R0060              -1.
    E0184     OBJECT              1.   P0075000            1.
    E0184     R0059               1.
    E0185     OBJECT              1.   P0076000           -1.
    E0185     R0061              -1.
    E0186     OBJECT              1.   P0076000            1.
    E0186     R0060               1.
    E0187     OBJECT              1.   P0077000           -1.
    E0187     R0061              -1.
    E0188     OBJECT              1.   P0077000            1.
    E0188     R0056               1.
    E0189     OBJECT              1.   P0078000           -1.
    E0189     R0051              -1.
    E0190     OBJECT              1.   P0078000            1.
    E0190     R0061               1.
    E0191     OBJECT              1.   P0079000           -1.
    E0191     R0062              -1.
    E0192     OBJECT              1.   P0079000            1.
    E0192     R0061               1.
    E0193     OBJECT              1.   P0080001           -1.
    E0193     R0063              -1.
    E0194     OBJECT              1.   P0080000           -1.
    E0194     R0070               1.
    E0195     OBJECT              1.   P0080000            1.
    E0195     P0080001            1.   R0055               1.
    E0196     OBJECT              1.   P0081001           -1.
    E0196     R0064              -1.
    E0197     OBJECT              1.   P0081000           -1.
    E0197     R0070               1.
    E0198     OBJECT              1.   P0081000            1.
    E0198     P0081001            1.   R0055               1.
    E0199     OBJECT              1.   P0082001           -1.
    E0199     R0065              -1.
    E0200     OBJECT              1.   P0082000           -1.
    E0200     R0056              -1.
    E0201     OBJECT              1.   P0082000            1.
    E0201     P0082001            1.   R0063               1.
    E0202     OBJECT              1.   P0083001           -1.
    E0202     R0066              -1.
    E0203     OBJECT              1.   P0083000           -1.
    E0203     R0056              -1.
    E0204     OBJECT              1.   P0083000            1.
    E0204     P0083001            1.   R0064               1.
    E0205     OBJECT              1.   P0084000           -1.
    E0205     R0067              -1.
    E0206     OBJECT              1.   P0084000            1.
    E0206     R0065               1.
    E0207     OBJECT              1.   P0085000           -1.
    E0207     R0068              -1.
    E0208     OBJECT              1.   P0085000            1.
    E0208     R0066               1.
    E0209     OBJECT              1.   P0086000           -1.
    E0209     R0069              -1.
    E0210     OBJECT              1.   P0086000            1.
    E0210     R0067               1.
    E0211     OBJECT              1.   P0087000           -1.
    E0211     R0069              -1.
    E0212     OBJECT              1.   P0087000            1.
    E0212     R0068               1.
    E0213     OBJECT              1.   P0088000           -1.
    E0213     R0069              -1.
    E0214     OBJECT              1.   P0088000            1.
    E0214     R0070               1.
RHS
BOUNDS
 LO BNDSET    E0000               1.
 LO BNDSET    E0001               1.
 LO BNDSET    E0002               1.
 LO BNDSET    E0003               1.
 LO BNDSET    E0004               1.
 LO BNDSET    E0005               1.
 LO BNDSET    E0006               1.
 LO BNDSET    E0007               1.
 LO BNDSET    E0008               1.
 LO BNDSET    E0009               1.
 LO BNDSET    E0010               1.
 LO BNDSET    E0011               1.
 LO BNDSET    E0012               1.
 LO BNDSET    E0013               1.
 LO BNDSET    E0014               1.
 LO BNDSET    E0015               1.
 LO BNDSET    E0016               1.
 LO BNDSET    E0017               1.
 LO BNDSET    E0018               1.
 LO BNDSET    E0019               1.
 LO BNDSET    E0020               1.
 LO BNDSET    E0021               1.
 LO BNDSET    E0022               1.
 LO BNDSET    E0023               1.
 LO BNDSET    E0024               1.
 LO BNDSET    E0025               1.
 LO BNDSET    E0026               1.
 LO BNDSET    E0027               1.
 LO BNDSET    E0028               1.
 LO BNDSET    E0029               1.
 LO BNDSET    E0030               1.
 LO BNDSET    E0031               1.
 LO BNDSET    E0032               1.
 LO BNDSET    E0033               1.
 LO BNDSET    E0034               1.
 LO BNDSET    E0035               1.
 LO BNDSET    E0036               1.
 LO BNDSET    E0037               1.
 LO BNDSET    E0038               1.
 LO BNDSET    E0039               1.
 LO BNDSET    E0040               1.
 LO BNDSET    E0041               1.
 LO BNDSET    E0042               1.
 LO BNDSET    E0043               1.
 LO BNDSET    E0044               1.
 LO BNDSET    E0045               1.
 LO BNDSET    E0046               1.
 LO BNDSET    E0047               1.
 LO BNDSET    E0048               1.
 LO BNDSET    E0049               1.
 LO BNDSET    E0050               1.
 LO BNDSET    E0051               1.
 LO BNDSET    E0052               1.
 LO BNDSET    E0053               1.
 LO BNDSET    E0054               1.
 LO BNDSET    E0055               1.
 LO BNDSET    E0056               1.
 LO BNDSET    E0057               1.
 LO BNDSET    E0058               1.
 LO BNDSET    E0059               1.
 LO BNDSET    E0060               1.
 LO BNDSET    E0061               1.
 LO BNDSET    E0062               1.
 LO BNDSET    E0063               1.
 LO BNDSET    E0064               1.
 LO BNDSET    E0065               1.
 LO BNDSET    E0066               1.
 LO BNDSET    E0067               1.
 LO BNDSET    E0068               1.
 LO BNDSET    E0069               1.
 LO BNDSET    E0070               1.
 LO BNDSET    E0071               1.
 LO BNDSET    E0072               1.
 LO BNDSET    E0073               1.
 LO BNDSET    E0074               1.
 LO BNDSET    E0075               1.
 LO BNDSET    E0076               1.
 LO BNDSET    E0077               1.
 LO BNDSET    E0078               1.
 LO BNDSET    E0079               1.
 LO BNDSET    E0080               1.
 LO BNDSET    E0081               1.
 LO BNDSET    E0082               1.
 LO BNDSET    E0083               1.
 LO BNDSET    E0084               1.
 LO BNDSET    E0085               1.
 LO BNDSET    E0086               1.
 LO BNDSET    E0087               1.
 LO BNDSET    E0088               1.
 LO BNDSET    E0089               1.
 LO BNDSET    E0090               1.
 LO BNDSET    E0091               1.
 LO BNDSET    E0092               1.
 LO BNDSET    E0093               1.
 LO BNDSET    E0094               1.
 LO BNDSET    E0095               1.
 LO BNDSET    E0096               1.
 LO BNDSET    E0097               1.
 LO BNDSET    E0098               1.
 LO BNDSET    E0099               1.
 LO BNDSET    E0100               1.
 LO BNDSET    E0101               1.
 LO BNDSET    E0102               1.
 LO BNDSET    E0103               1.
 LO BNDSET    E0104               1.
 LO BNDSET    E0105               1.
 LO BNDSET    E0106               1.
 LO BNDSET    E0107               1.
 LO BNDSET    E0108               1.
 LO BNDSET    E0109               1.
 LO BNDSET    E0110               1.
 LO BNDSET    E0111               1.
 LO BNDSET    E0112               1.
 LO BNDSET    E0113               1.
 LO BNDSET    E0114               1.
 LO BNDSET    E0115               1.
 LO BNDSET    E0116               1.
 LO BNDSET    E0117               1.
 LO BNDSET    E0118               1.
 LO BNDSET    E0119               1.
 LO BNDSET    E0120               1.
 LO BNDSET    E0121               1.
 LO BNDSET    E0122               1.
 LO BNDSET    E0123               1.
 LO BNDSET    E0124               1.
 LO BNDSET    E0125               1.
 LO BNDSET    E0126               1.
 LO BNDSET    E0127               1.
 LO BNDSET    E0128               1.
 LO BNDSET    E0129               1.
 LO BNDSET    E0130               1.
 LO BNDSET    E0131               1.
 LO BNDSET    E0132               1.
 LO BNDSET    E0133               1.
 LO BNDSET    E0134               1.
 LO BNDSET    E0135               1.
 LO BNDSET    E0136               1.
 LO BNDSET    E0137               1.
 LO BNDSET    E0138               1.
 LO BNDSET    E0139               1.
 LO BNDSET    E0140               1.
 LO BNDSET    E0141               1.
 LO BNDSET    E0142               1.
 LO BNDSET    E0143               1.
 LO BNDSET    E0144               1.
 LO BNDSET    E0145               1.
 LO BNDSET    E0146               1.
 LO BNDSET    E0147               1.
 LO BNDSET    E0148               1.
 LO BNDSET    E0149               1.
 LO BNDSET    E0150               1.
 LO BNDSET    E0151               1.
 LO BNDSET    E0152               1.
 LO BNDSET    E0153               1.
 LO BNDSET    E0154               1.
 LO BNDSET    E0155               1.
 LO BNDSET    E0156               1.
 LO BNDSET    E0157               1.
 LO BNDSET    E0158               1.
 LO BNDSET    E0159               1.
 LO BNDSET    E0160               1.
 LO BNDSET    E0161               1.
 LO BNDSET    E0162               1.
 LO BNDSET    E0163               1.
 LO BNDSET    E0164               1.
 LO BNDSET    E0165               1.
 LO BNDSET    E0166               1.
 LO BNDSET    E0167               1.
 LO BNDSET    E0168               1.
 LO BNDSET    E0169               1.
 LO BNDSET    E0170               1.
 LO BNDSET    E0171               1.
 LO BNDSET    E0172               1.
 LO BNDSET    E0173               1.
 LO BNDSET    E0174               1.
 LO BNDSET    E0175               1.
 LO BNDSET    E0176               1.
 LO BNDSET    E0177               1.
 LO BNDSET    E0178               1.
 LO BNDSET    E0179               1.
 LO BNDSET    E0180               1.
 LO BNDSET    E0181               1.
 LO BNDSET    E0182               1.
 LO BNDSET    E0183               1.
 LO BNDSET    E0184               1.
 LO BNDSET    E0185               1.
 LO BNDSET    E0186               1.
 LO BNDSET    E0187               1.
 LO BNDSET    E0188               1.
 LO BNDSET    E0189               1.
 LO BNDSET    E0190               1.
 LO BNDSET    E0191               1.
 LO BNDSET    E0192               1.
 LO BNDSET    E0193               1.
 LO BNDSET    E0194               1.
 LO BNDSET    E0195               1.
 LO BNDSET    E0196               1.
 LO BNDSET    E0197               1.
 LO BNDSET    E0198               1.
 LO BNDSET    E0199               1.
 LO BNDSET    E0200               1.
 LO BNDSET    E0201               1.
 LO BNDSET    E0202               1.
 LO BNDSET    E0203               1.
 LO BNDSET    E0204               1.
 LO BNDSET    E0205               1.
 LO BNDSET    E0206               1.
 LO BNDSET    E0207               1.
 LO BNDSET    E0208               1.
 LO BNDSET    E0209               1.
 LO BNDSET    E0210               1.
 LO BNDSET    E0211               1.
 LO BNDSET    E0212               1.
 LO BNDSET    E0213               1.
 LO BNDSET    E0214               1.
ENDATA
